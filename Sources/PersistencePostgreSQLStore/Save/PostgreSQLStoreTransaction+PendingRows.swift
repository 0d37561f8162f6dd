#if PostgreSQL
import PersistenceModel
import PersistenceStore

// The rows a transaction buffers to write many per statement (see `PostgreSQLStoreTransaction`).
extension PostgreSQLStoreTransaction {
    /// As many rows as fit a statement's 65,535 parameters, at most 1,000: past that a
    /// statement's text and the server's planning grow faster than round trips shrink.
    static func rowsPerStatement(parametersPerRow: Int) -> Int {
        max(1, min(1_000, 65_535 / max(1, parametersPerRow)))
    }

    /// New rows of one entity, written by one `INSERT … VALUES (…), (…)`.
    struct PendingInserts {
        struct Row {
            var key: Int64
            /// The caller's number for the row, to name it when the server refuses it.
            var tag: Int
            var parameters: [PGValue]
        }

        var entity: PGSchema.Entity
        /// The quoted columns, `_id` (and `_entity`) first.
        var names: [String]
        var onConflict: InsertConflictAction
        var rows: [Row] = []

        /// The statement and its parameters, `$1` … numbered row after row.
        func statement() -> (String, [PGValue]) {
            var parameters: [PGValue] = []
            parameters.reserveCapacity(rows.count * names.count)
            var tuples: [String] = []
            tuples.reserveCapacity(rows.count)
            for row in rows {
                let first = parameters.count + 1
                parameters += row.parameters
                tuples.append("(" + (first..<first + row.parameters.count).map { "$\($0)" }.joined(separator: ", ") + ")")
            }
            let sql = "INSERT INTO \(pgIdentifier(entity.table.name)) (\(names.joined(separator: ", "))) VALUES "
                + tuples.joined(separator: ", ")
            return (sql, parameters)
        }
    }

    /// Updates of the same columns of rows of one entity, each bumping its row's version.
    struct PendingUpdates {
        struct Row {
            var key: Int64
            /// The caller's number for the row, to name it when the server refuses it.
            var tag: Int
            /// The new values, in the order of `columns`.
            var values: [PGValue]
            /// The properties the history records as updated.
            var properties: [String]
        }

        var entity: PGSchema.Entity
        /// The table columns written, by index.
        var columns: [Int]
        var rows: [Row] = []

        /// `UPDATE t SET c = v.c, …, "_opt" = t."_opt" + 1 FROM (VALUES ($1::bigint, $2::type, …), …)
        /// AS v("_id", c, …) WHERE t."_id" = v."_id"`: the rows' keys and values as a table
        /// the update joins, each placeholder cast to its column's type (a VALUES list has
        /// none of its own).
        func statement() -> (String, [PGValue]) {
            let names = columns.map { pgIdentifier(entity.table.columns[$0].name) }
            let types = ["bigint"] + columns.map { entity.table.columns[$0].sqlType }
            var parameters: [PGValue] = []
            parameters.reserveCapacity(rows.count * types.count)
            var tuples: [String] = []
            tuples.reserveCapacity(rows.count)
            for row in rows {
                let first = parameters.count + 1
                parameters.append(.integer(row.key))
                parameters += row.values
                tuples.append("(" + types.enumerated().map { "$\(first + $0.offset)::\($0.element)" }.joined(separator: ", ") + ")")
            }
            let assignments = names.map { "\($0) = v.\($0)" } + ["\"_opt\" = t.\"_opt\" + 1"]
            let columnList = (["\"_id\""] + names).joined(separator: ", ")
            let sql = "UPDATE \(pgIdentifier(entity.table.name)) AS t SET \(assignments.joined(separator: ", ")) "
                + "FROM (VALUES \(tuples.joined(separator: ", "))) AS v(\(columnList)) "
                + "WHERE t.\"_id\" = v.\"_id\""
            return (sql, parameters)
        }
    }
}
#endif
