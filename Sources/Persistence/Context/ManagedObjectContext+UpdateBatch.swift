import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteStore

/// Updated objects' changed columns waiting to be written together by one multi-row
/// UPDATE (see `SQLiteStore.updateRows(_:columns:rows:)`): consecutive objects of one
/// entity that changed the same columns, up to the store's rows-per-statement limit.
struct UpdateBatch {
    /// The entity of the queued rows.
    private(set) var mapping: EntityMapping?
    /// The changed columns (indexes into the table's columns) every queued row shares.
    private(set) var columns: [Int] = []
    /// The queued objects, in the order of `rows`.
    private(set) var objects: [ManagedObject] = []
    /// The queued rows: primary key and the changed columns' values.
    private(set) var rows: [(primaryKey: Int64, values: [SQLiteValue])] = []

    /// Whether a row of `mapping` changing `columns` must wait for the queued rows.
    func needsFlush(before mapping: EntityMapping, columns: [Int]) -> Bool {
        guard let current = self.mapping else { return false }
        return current.schema !== mapping.schema || self.columns != columns
            || rows.count >= SQLiteStore.rowsPerUpdate(columnCount: columns.count)
    }

    /// Queues an object's changed values.
    mutating func append(_ object: ManagedObject, mapping: EntityMapping, columns: [Int], primaryKey: Int64, values: [SQLiteValue]) {
        self.mapping = mapping
        self.columns = columns
        objects.append(object)
        rows.append((primaryKey, values))
    }

    /// Empties the queue.
    mutating func removeAll() {
        mapping = nil
        columns = []
        objects.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
    }
}

extension ManagedObjectContext {
    /// Queues an updated object's changed columns, writing the queued rows first when they
    /// are of another entity, change other columns, or fill a statement.
    func queueUpdate(
        _ object: ManagedObject, mapping: EntityMapping, primaryKey: Int64, columns: [Int], values: [SQLiteValue],
        into batch: inout UpdateBatch
    ) throws {
        guard !columns.isEmpty else { return }
        if batch.needsFlush(before: mapping, columns: columns) { try flushUpdates(&batch) }
        batch.append(object, mapping: mapping, columns: columns, primaryKey: primaryKey, values: values)
    }

    /// Writes the queued updates with one statement. On a uniqueness conflict (which leaves
    /// the statement's rows as they were) the rows are written one by one, so that the
    /// error names the conflicting object and values.
    func flushUpdates(_ batch: inout UpdateBatch) throws {
        guard let mapping = batch.mapping else { return }
        do {
            try store.updateRows(mapping, columns: batch.columns, rows: batch.rows)
        } catch let error as SQLiteError where error.isUniqueConstraint {
            for (object, row) in zip(batch.objects, batch.rows) {
                try withConflictReporting(object) {
                    try store.updateRow(mapping, primaryKey: row.primaryKey, columns: batch.columns, values: row.values)
                }
            }
            throw error
        }
        batch.removeAll()
    }
}
