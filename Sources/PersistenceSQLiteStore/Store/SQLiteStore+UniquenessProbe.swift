import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

extension SQLiteStore {
    /// Whether any row of `mapping`'s hierarchy holds one of the given value tuples in its
    /// `keys` columns: one query for a whole batch of candidates, so that a save under
    /// object-trump merging asks the store once per batch instead of once per object when
    /// (as when seeding new rows) nothing matches.
    ///
    /// Each tuple is compared with `=` exactly as `primaryKey(in:matching:values:)` does
    /// (a NULL never matches, decimals compare under their collation), so a false answer
    /// means that call would find nothing for any of the tuples.
    ///
    /// - Parameter valueLists: one array per candidate, with a value per key, in key order.
    /// - Throws: `SQLiteError` when the store cannot be read.
    package func hasRow(in mapping: EntityMapping, matching keys: [String], anyOf valueLists: [[SQLiteValue]]) throws -> Bool {
        guard !keys.isEmpty, !valueLists.isEmpty else { return false }
        var query = StoreQuery(table: mapping.table)
        if !mapping.schema.ancestors.isEmpty { query.entityNames = mapping.schema.hierarchyNames }
        let tuple = "(" + keys.map { key in
            "\(mapping.table.column(named: key)?.comparableSQL ?? sqlIdentifier(key)) = ?"
        }.joined(separator: " AND ") + ")"
        query.condition = Array(repeating: tuple, count: valueLists.count).joined(separator: " OR ")
        query.arguments = valueLists.flatMap { $0 }
        query.limit = 1
        let statement = try database.cachedStatement("SELECT 1" + query.fromClause + query.whereClause + query.tail)
        // Reset on exit: see primaryKey(in:matching:values:).
        defer { statement.reset() }
        try statement.bind(query.arguments)
        return try statement.step()
    }
}
