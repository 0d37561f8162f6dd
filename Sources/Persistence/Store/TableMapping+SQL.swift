extension TableMapping {
    /// `INSERT INTO "T" ("_id"[, "_entity"], "c1", …) VALUES (?, …)`: every column of the
    /// table, in table order. Built once per entity mapping, not per inserted row.
    package var insertSQL: String {
        var names = ["\"_id\""]
        if hasEntityColumn { names.append("\"_entity\"") }
        names += columns.map { sqlIdentifier($0.name) }
        return "INSERT INTO \(sqlIdentifier(name)) (\(names.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
    }
}
