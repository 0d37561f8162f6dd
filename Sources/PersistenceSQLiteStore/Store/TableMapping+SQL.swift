import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteFiles
extension TableMapping {
    /// `INSERT INTO "T" ("_id"[, "_entity"], "c1", …) VALUES (?, …)` for a table of these
    /// columns (see `insertSQL`).
    static func insertSQL(name: String, hasEntityColumn: Bool, columns: [Column]) -> String {
        var names = ["\"_id\""]
        if hasEntityColumn { names.append("\"_entity\"") }
        names += columns.map { sqlIdentifier($0.name) }
        return "INSERT INTO \(sqlIdentifier(name)) (\(names.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
    }
}
