import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteStore

/// Inserted objects' rows waiting to be written together by one multi-row INSERT (see
/// `SQLiteStore.insertRows(_:_:)`): consecutive objects of one entity, up to the store's
/// rows-per-statement limit.
struct InsertBatch {
    /// The entity of the queued rows.
    private(set) var mapping: EntityMapping?
    /// The queued objects, in the order of `rows`.
    private(set) var objects: [ManagedObject] = []
    /// The queued rows: primary key and column values.
    private(set) var rows: [(primaryKey: Int64, columns: [SQLiteValue])] = []

    /// Whether a row of `mapping` must wait for the queued rows to be written first.
    func needsFlush(before mapping: EntityMapping) -> Bool {
        guard let current = self.mapping else { return false }
        return current.schema !== mapping.schema || rows.count >= SQLiteStore.rowsPerInsert(current)
    }

    /// Queues an object's row.
    mutating func append(_ object: ManagedObject, mapping: EntityMapping, primaryKey: Int64, columns: [SQLiteValue]) {
        self.mapping = mapping
        objects.append(object)
        rows.append((primaryKey, columns))
    }

    /// Empties the queue.
    mutating func removeAll() {
        mapping = nil
        objects.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
    }
}

extension ManagedObjectContext {
    /// Queues an inserted object's row, writing the queued rows first when they are of
    /// another entity or fill a statement.
    func queueInsert(
        _ object: ManagedObject, mapping: EntityMapping, primaryKey: Int64, columns: [SQLiteValue],
        into batch: inout InsertBatch
    ) throws {
        if batch.needsFlush(before: mapping) { try flushInserts(&batch) }
        batch.append(object, mapping: mapping, primaryKey: primaryKey, columns: columns)
    }

    /// Writes the queued rows with one statement. When SQLite refuses the statement for a
    /// uniqueness conflict (which leaves none of its rows written), the rows are written
    /// one by one so that the error names the conflicting object and values.
    func flushInserts(_ batch: inout InsertBatch) throws {
        guard let mapping = batch.mapping else { return }
        do {
            try store.insertRows(mapping, batch.rows)
        } catch let error as SQLiteError where error.isUniqueConstraint {
            for (object, row) in zip(batch.objects, batch.rows) {
                try withConflictReporting(object) {
                    try store.insertRow(mapping, primaryKey: row.primaryKey, columns: row.columns)
                }
            }
            throw error
        }
        batch.removeAll()
    }
}
