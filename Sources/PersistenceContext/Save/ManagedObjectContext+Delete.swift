import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObjectContext {
    /// Marks an object for deletion at the next save and applies its relationships' delete
    /// rules in memory. Deleting an unsaved object simply forgets it.
    ///
    /// - **Nullify** removes the object from each destination's inverse relationship.
    /// - **Cascade** deletes the destinations too, transitively; cycles are safe (each object
    ///   is deleted once) and long chains use no recursion.
    /// - **Deny** is checked at save: the save fails with a `ValidationError` naming the
    ///   object and the relationship while the relationship still holds objects that are not
    ///   deleted; empty it (or delete its objects) and the save succeeds.
    /// - **No Action** leaves the destinations' references as they are. After the save, a
    ///   dangling to-one reads as `nil` (its row is gone; `existingObject(with:)` throws for
    ///   its ID), and a to-many loaded from the store no longer lists the deleted object
    ///   (its join rows go with it). A to-many already in memory keeps the deleted object
    ///   (with `isDeleted` true) until it is refreshed.
    public func delete(_ object: ManagedObject) {
        onQueue { deleteOnQueue(object) }
    }

    /// Marks each of `objects` for deletion, exactly as `delete(_:)` one by one would, but
    /// first loads what their delete rules walk (each nullified relationship with an inverse
    /// and each cascading one that is still a fault) for all of them at once: one store read
    /// per relationship and entity, as prefetching reads, where deleting one by one reads
    /// each object's relationships on their own (a query per book for its tags, to take it
    /// out of each tag's books). A read that fails here is tried again object by object.
    public func delete<Objects: Sequence>(_ objects: Objects) where Objects.Element: ManagedObject {
        let objects = objects.map { $0 as ManagedObject }
        onQueue {
            let live = objects.filter { $0.managedObjectContext === self && !$0.isDeleted }
            for group in Dictionary(grouping: live, by: { ObjectIdentifier($0.schema) }).values {
                for case .relationship(let r) in group[0].schema.properties
                where r.deleteRule == .cascade || (r.deleteRule == .nullify && r.inverseName != nil) {
                    try? prefetchRelationships([[r.name]], of: group)
                }
            }
            for object in objects { deleteOnQueue(object) }
        }
    }

    private func deleteOnQueue(_ object: ManagedObject) {
        var work = [object]
        while let next = work.popLast() {
            guard next.managedObjectContext === self, !next.isDeleted else { continue }
            next.fireFaultIfNeeded()
            next.registerUndoBeforeChange()
            // Only the relationships: walking every property would copy each attribute's
            // description, per deleted object.
            let schema = next.schema
            for position in schema.relationshipPositions {
                guard case .relationship(let r) = schema.properties[position] else { continue }
                switch r.deleteRule {
                case .nullify:
                    guard let inverse = r.inverseName else { continue }
                    for destination in destinations(of: next, at: position, r) {
                        destination.inverseRemove(next, key: inverse)
                    }
                case .cascade:
                    work += destinations(of: next, at: position, r).reversed()
                case .deny, .noAction:
                    break
                }
            }
            if next.isInserted {
                next.isInserted = false
                changed[ObjectIdentifier(next)] = nil
                detach(next)
            } else {
                next.isDeleted = true
                changed[ObjectIdentifier(next)] = next
            }
        }
    }

    private func destinations(of object: ManagedObject, at position: Int, _ r: RelationshipDescription) -> [ManagedObject] {
        r.isToMany ? object.objects(at: position) : (object.object(at: position).map { [$0] } ?? [])
    }
}
