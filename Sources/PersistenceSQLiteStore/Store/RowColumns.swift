import PersistenceSQLite

/// A row's table columns, each found once (`Statement.column(at:)`) with its storage class
/// read, for everything that reads the row: the sort keys kept for an in-memory ordering,
/// then the decode plan, so that neither asks SQLite for each column's class and then its
/// value by index, finding the column again for each question.
///
/// One buffer serves a whole read: `load` refills it for each row. The values are valid until
/// the statement steps.
struct RowColumns: ~Copyable {
    private let values: UnsafeMutableBufferPointer<ColumnValue>
    private let classes: UnsafeMutableBufferPointer<SQLiteStorageClass>
    /// Where the table's columns start among the statement's.
    let firstColumn: Int32

    /// A buffer for `count` table columns that start at the statement's `firstColumn`.
    init(count: Int, firstColumn: Int32) {
        values = .allocate(capacity: count)
        classes = .allocate(capacity: count)
        self.firstColumn = firstColumn
    }

    deinit {
        values.deallocate()
        classes.deallocate()
    }

    /// Finds the statement's current row's columns and reads their classes, before any of
    /// them is read as a type (which would convert it in place).
    func load(from statement: Statement) {
        for index in values.indices {
            let value = statement.column(at: firstColumn + Int32(index))
            values.initializeElement(at: index, to: value)
            classes.initializeElement(at: index, to: value.storageClass)
        }
    }

    /// The table column `index` of the current row.
    @inline(__always) subscript(index: Int32) -> ColumnValue { values[Int(index)] }

    /// Table column `index`'s storage class as the row was loaded.
    @inline(__always) func storageClass(_ index: Int32) -> SQLiteStorageClass { classes[Int(index)] }
}
