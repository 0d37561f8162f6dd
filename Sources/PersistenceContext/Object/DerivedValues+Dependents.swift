import Foundation
import PersistenceModel
import PersistenceStore

/// Derived values that read other objects (`author.name`, `books.@count`,
/// `books.@sum.price`), kept current when only the other objects change.
///
/// A save computes the derived values of the objects it writes. An `Author` whose
/// `totalPrice` is `books.@sum.price` is not one of them when only a book's price changed,
/// so the save also walks back from every changed object, through the inverses of the
/// relationships such a derivation reads, to the objects that derive from it, recomputes
/// them, and writes those whose values changed (and, in turn, what derives from those).
///
/// Walking back needs inverses: a derivation through a relationship without one is
/// recomputed only when its own object is saved. Batch inserts make no objects;
/// `BatchInsertWriter` recomputes aggregates over the rows it writes itself.
extension DerivedValues {
    /// A derivation that reads through relationships: the relationships it walks from its
    /// own entity, and the key it reads at each step's destination.
    struct Reach: Hashable {
        /// The relationships walked, first to last, each with its inverse's name.
        var steps: [Step]

        struct Step: Hashable {
            /// The relationship's destination entity.
            var destination: String
            /// The inverse's name on the destination: the way back.
            var inverse: String
            /// The key of the destination the derivation reads next (a relationship or an
            /// attribute), or nil when it only counts the destinations.
            var readKey: String?
        }
    }

    /// Recomputes the derived values of objects that read the saved or deleted objects
    /// through relationships, and of those that read them, and returns the objects this
    /// changed, besides those of the save, for the save to write.
    ///
    /// A model without such derivations costs one look at its entities' derivations.
    ///
    /// - Throws: as ``compute(_:)``.
    static func recomputeDependents(
        of saved: [ManagedObject], deleted: [ManagedObject], in context: ManagedObjectContext
    ) throws -> [ManagedObject] {
        let reaches = self.reaches(in: context.model)
        guard !reaches.isEmpty else { return [] }
        let changed = saved + deleted
        var inSave = Set(changed.map(ObjectIdentifier.init))
        var recomputed: Set<ObjectIdentifier> = []
        var added: [ManagedObject] = []
        var frontier = changed
        while !frontier.isEmpty {
            var next: [ManagedObject] = []
            for dependent in dependents(of: frontier, through: reaches)
            where recomputed.insert(ObjectIdentifier(dependent)).inserted {
                guard dependent.managedObjectContext === context, !dependent.isDeleted else { continue }
                dependent.fireFaultIfNeeded()
                let before = dependent.slots
                try compute(dependent)
                let changedHere = zip(before, dependent.slots).contains { !$0.isSame(as: $1) }
                guard changedHere else { continue }
                if inSave.insert(ObjectIdentifier(dependent)).inserted {
                    if !dependent.isInserted { context.objectDidChange(dependent) }
                    added.append(dependent)
                }
                next.append(dependent)
            }
            frontier = next
        }
        return added
    }

    /// The objects whose derivations read one of `objects` in a way its change matters to.
    private static func dependents(of objects: [ManagedObject], through reaches: [Reach]) -> [ManagedObject] {
        var result: [ManagedObject] = []
        var seen: Set<ObjectIdentifier> = []
        for object in objects {
            let changedKeys = object.isInserted || object.isDeleted
                ? nil : Set(object.changedPositions().map { object.schema.propertyNames[$0] })
            for reach in reaches {
                for (depth, step) in reach.steps.enumerated() where object.schema.isKind(of: step.destination) {
                    // An inserted or deleted destination joins or leaves the collection; any
                    // other matters only when the key read next changed.
                    if let changedKeys {
                        guard let key = step.readKey, changedKeys.contains(key) else { continue }
                    }
                    var current = [object]
                    for back in reach.steps[...depth].reversed() {
                        current = current.flatMap { holder -> [ManagedObject] in
                            guard let position = holder.schema.propertyIndex[back.inverse] else { return [] }
                            if holder.schema.plans[position].kind == .toMany { return holder.objects(at: position) }
                            return holder.object(at: position).map { [$0] } ?? []
                        }
                    }
                    for dependent in current where seen.insert(ObjectIdentifier(dependent)).inserted {
                        result.append(dependent)
                    }
                }
            }
        }
        return result
    }

    /// Every derivation of the model that reads through relationships with inverses, once
    /// (a sub-entity inherits its parent's derivations, which walk the same way).
    static func reaches(in model: ManagedObjectModel) -> [Reach] {
        var result: [Reach] = []
        var seen: Set<Reach> = []
        for schema in model.schemas.values.sorted(by: { $0.name < $1.name }) {
            for (_, derivation) in schema.derivations {
                let path: [String]
                let finalKey: String?
                switch derivation {
                case .keyPath(let keys) where keys.count > 1:
                    path = Array(keys.dropLast())
                    finalKey = keys.last
                case .count(let relationship):
                    path = [relationship]
                    finalKey = nil
                case .sum(let relationship, let attribute):
                    path = [relationship]
                    finalKey = attribute
                default:
                    continue
                }
                var steps: [Reach.Step] = []
                var owner: EntitySchema? = schema
                for (index, key) in path.enumerated() {
                    guard let relationship = owner?.relationship(named: key), let inverse = relationship.inverseName
                    else {
                        steps = []
                        break
                    }
                    let readKey = index + 1 < path.count ? path[index + 1] : finalKey
                    steps.append(.init(destination: relationship.destinationEntityName, inverse: inverse, readKey: readKey))
                    owner = model.schema(for: relationship.destinationEntityName)
                }
                guard !steps.isEmpty else { continue }
                let reach = Reach(steps: steps)
                if seen.insert(reach).inserted { result.append(reach) }
            }
        }
        return result
    }
}
