import PersistenceModel
import PersistenceStore

/// A managed object as a store writes it: a to-one's destination by its permanent ID (the
/// key a running save gives an inserted destination), nothing of the object graph.
extension ManagedObject: SavedObject {
    package func storedSlot(at position: Int) -> StoredSlot {
        fireFaultIfNeeded()
        switch slots[position] {
        case .value(let value): return .value(value)
        case .toOneFault(let id): return .toOneFault(id)
        case .toOne(let destination?):
            guard let key = destination.rowKey else { return .toOneFault(nil) }
            return .toOneFault(ObjectID(scope: destination.objectID.scope, key: .permanent(key)))
        case .toOne(nil): return .toOneFault(nil)
        case .toManyFault, .toMany: return .toManyFault
        }
    }
}
