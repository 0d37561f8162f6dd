import Foundation
import PersistenceModel
import PersistenceStore

/// The IDs of one batch of faults a batched fetch returned (see `FetchRequest.fetchBatchSize`):
/// the first of them used loads them all in one store read.
final class FaultBatch {
    let ids: [ObjectID]

    init(ids: [ObjectID]) { self.ids = ids }
}

extension ManagedObjectContext {
    /// The objects a request selects as faults, reading only their IDs: a batched fetch, or
    /// one that leaves out property values. Objects the context holds with their values come
    /// back as they are; with a batch size, the others are grouped in batches that load
    /// whole when first used. Call only without unsaved changes of the entity (whose objects
    /// the store's answer would miss).
    func fetchFaults(_ request: FetchRequest) throws -> [ManagedObject] {
        let ids = try persistentStoreCoordinator.read { try $0.objectIDs(for: request) }
        var result: [ManagedObject] = []
        result.reserveCapacity(ids.count)
        var unloaded: [ManagedObject] = []
        // IDs of one entity share a scope: its schema is looked up once per scope in a row.
        var last: (scope: ObjectID.Scope, schema: EntitySchema)?
        for id in ids {
            let schema: EntitySchema
            if let last, last.scope === id.scope {
                schema = last.schema
            } else {
                guard let found = model.schema(for: id.entityName) else { continue }
                schema = found
                last = (id.scope, found)
            }
            let (object, _) = registeredObject(for: id) { makeObject(schema: schema, id: id, isFault: true) }
            if object.isDeleted { continue }
            result.append(object)
            if object.isFault { unloaded.append(object) }
        }
        let size = request.fetchBatchSize
        guard size > 0 else { return result }
        for start in stride(from: 0, to: unloaded.count, by: size) {
            let members = unloaded[start..<min(start + size, unloaded.count)]
            let batch = FaultBatch(ids: members.map(\.objectID))
            for object in members { faultBatches[ObjectIdentifier(object)] = batch }
        }
        return result
    }

    /// Loads the rows of a batch of faults in one store read and fills those still faults.
    /// Objects of the batch that are gone are not made again. When the store cannot be read now, they stay faults, each loading its own row when
    /// used (see `fulfillFault(_:force:)`).
    func loadBatch(_ batch: FaultBatch) {
        let rows: [StoreRow]
        do { rows = try persistentStoreCoordinator.read { try $0.rows(for: batch.ids) } } catch { return }
        // The batch is done: a member whose row is gone loads (and finds nothing) alone.
        for id in batch.ids {
            if let object = registry[id]?.object { faultBatches[ObjectIdentifier(object)] = nil }
        }
        for row in rows {
            guard let object = registry[ObjectID(scope: row.idScope, key: .permanent(row.primaryKey))]?.object,
                object.isFault
            else { continue }
            fill(object, from: row)
        }
    }
}
