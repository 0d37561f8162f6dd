import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// Runs one `MigrationPlan` on an open database, inside the caller's transaction.
///
/// SQLite's table rebuild, for every entity table: the source tables are renamed aside
/// (`_migrating_<name>`) and their indexes dropped; the destination schema's tables are
/// created under their own names; rows are copied with one `INSERT … SELECT` per table that
/// maps each column to its source column (renamed, defaulted, or read through an inverse
/// for a relationship whose side moved); values whose value transformer changed are
/// re-encoded; the old tables are dropped. Then dangling to-one references are cleared,
/// attributes and to-ones made required without a default are checked (refusing, naming
/// the objects, when one has no value), primary-key counters follow renamed tables,
/// derived attributes are recomputed (refusing a value that does not fit), uniqueness
/// constraints are checked (refusing, with the rows, when existing objects violate one),
/// and the destination's indexes are created. Objects keep their primary keys. A plan that
/// keeps the tables only re-encodes values and brings the indexes in line.
///
/// Tables that are not entity tables (join tables, search indexes) are left as they are
/// when they already exist, and created when the destination schema has them and the store
/// does not.
struct MigrationExecutor {
    let plan: MigrationPlan
    let database: Database
    let sourceSchema: StoreSchema
    let destinationSchema: StoreSchema
    /// The tables the store had before the migration.
    let existingTables: Set<String>
    /// The store's files of external data, for values re-encoded in files; nil for an
    /// in-memory database.
    var files: MigrationFiles?

    init(plan: MigrationPlan, database: Database) throws {
        self.plan = plan
        self.database = database
        self.sourceSchema = StoreSchema(model: plan.source)
        self.destinationSchema = StoreSchema(model: plan.destination)
        self.existingTables = Set(
            try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.textValue })
    }

    /// The source tables the rebuild sets aside: entity tables and the join tables there are.
    var sourceTableNames: [String] {
        (Array(sourceSchema.tables.keys) + sourceSchema.joinTables.map(\.name).filter(existingTables.contains)).sorted()
    }

    static func aside(_ name: String) -> String { "_migrating_" + name }

    func run() throws {
        if plan.rebuildsTables {
            try moveSourceTablesAside()
            try createDestinationTables()
            for table in destinationSchema.tables.values.sorted(by: { $0.name < $1.name }) {
                try copyRows(into: table)
            }
            for table in destinationSchema.joinTables { try copyLinks(into: table) }
            try reencodeTransformedValues()
            for table in sourceTableNames {
                try database.execute("DROP TABLE \(sqlIdentifier(Self.aside(table)))")
            }
            // Plain indexes first, so that recomputing derived values (`@count` through an
            // inverse's column) and clearing dangling keys use them.
            try createIndexes(unique: false)
            try clearDanglingReferences()
            try checkRequiredValues()
            try renamePrimaryKeyCounters()
            try MigrationDerivations(plan: plan, database: database, schema: destinationSchema).recompute()
            try checkUniqueness()
            try createIndexes(unique: true)
        } else {
            try reencodeTransformedValues()
            try dropStaleIndexes()
            try checkUniqueness()
            try createIndexes(unique: false)
            try createIndexes(unique: true)
        }
        try renameTombstoneEntities()
        try recordVersionHashes()
    }

    // MARK: - Tables

    private func moveSourceTablesAside() throws {
        for name in sourceTableNames {
            let indexes = try database.query(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                [.text(name)])
            for row in indexes {
                if let index = row.first?.textValue { try database.execute("DROP INDEX \(sqlIdentifier(index))") }
            }
            try database.execute("ALTER TABLE \(sqlIdentifier(name)) RENAME TO \(sqlIdentifier(Self.aside(name)))")
        }
    }

    private func createDestinationTables() throws {
        let existing = Set(try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.textValue })
        let joinTables = Set(destinationSchema.joinTables.map(\.name))
        for statement in destinationSchema.createStatements where !Self.isIndex(statement) {
            let entityTable = destinationSchema.tables.keys.contains { statement.hasPrefix("CREATE TABLE \(sqlIdentifier($0)) (") }
            if !entityTable, let name = Self.tableName(in: statement), existing.contains(name), !joinTables.contains(name) {
                continue
            }
            try database.execute(statement)
        }
    }

    private func createIndexes(unique: Bool) throws {
        for statement in destinationSchema.createStatements
        where Self.isIndex(statement) && statement.hasPrefix("CREATE UNIQUE") == unique {
            var sql = statement
            for prefix in ["CREATE INDEX ", "CREATE UNIQUE INDEX "]
            where sql.hasPrefix(prefix) && !sql.hasPrefix(prefix + "IF NOT EXISTS") {
                sql = prefix + "IF NOT EXISTS " + sql.dropFirst(prefix.count)
            }
            try database.execute(sql)
        }
    }

    /// The destination schema's indexes on entity tables, by name, with their table.
    static func entityIndexes(of schema: StoreSchema) -> [String: (table: String, sql: String)] {
        var result: [String: (table: String, sql: String)] = [:]
        for statement in schema.createStatements where isIndex(statement) {
            var rest = Substring(statement)
            for prefix in ["CREATE INDEX ", "CREATE UNIQUE INDEX ", "IF NOT EXISTS "] where rest.hasPrefix(prefix) {
                rest = rest.dropFirst(prefix.count)
            }
            guard let (name, after) = quotedName(rest), after.hasPrefix(" ON "),
                let (table, _) = quotedName(after.dropFirst(" ON ".count)), schema.tables[table] != nil
            else { continue }
            result[name] = (table, statement)
        }
        return result
    }

    /// The store's indexes on the destination's entity tables (not SQLite's own).
    private func existingEntityIndexes() throws -> [String] {
        let tables = destinationSchema.tables.keys.sorted()
        guard !tables.isEmpty else { return [] }
        return try database.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ("
                + tables.map(sqlLiteral).joined(separator: ", ") + ")"
        ).compactMap { $0.first?.textValue }
    }

    /// Drops indexes the destination no longer has, when the tables are kept.
    private func dropStaleIndexes() throws {
        let wanted = Self.entityIndexes(of: destinationSchema)
        for name in try existingEntityIndexes() where wanted[name] == nil {
            try database.execute("DROP INDEX \(sqlIdentifier(name))")
        }
    }

    /// Renames entities in the `_tombstone` records of deleted objects and in the changes of
    /// the persistent history, when there are any.
    private func renameTombstoneEntities() throws {
        for table in ["_tombstone", "_historyChange"] {
            guard try database.scalar("SELECT count(*) FROM sqlite_master WHERE name = ?", [.text(table)]).int64Value == 1
            else { continue }
            for (destination, source) in plan.sourceEntityNames where destination != source {
                try database.execute("UPDATE \(table) SET entity = ? WHERE entity = ?", [.text(destination), .text(source)])
            }
        }
    }

    /// A quoted SQL identifier at the start of `text`, unquoted, and the text after it.
    static func quotedName(_ text: Substring) -> (String, Substring)? {
        guard text.hasPrefix("\"") else { return nil }
        var name = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let c = text[index]
            index = text.index(after: index)
            if c == "\"" {
                if index < text.endIndex, text[index] == "\"" {
                    name.append("\"")
                    index = text.index(after: index)
                    continue
                }
                return (name, text[index...])
            }
            name.append(c)
        }
        return nil
    }

    private static func isIndex(_ statement: String) -> Bool {
        statement.hasPrefix("CREATE INDEX") || statement.hasPrefix("CREATE UNIQUE INDEX")
    }

    /// The quoted name after `CREATE [VIRTUAL] TABLE [IF NOT EXISTS]`, unquoted.
    private static func tableName(in statement: String) -> String? {
        var rest = Substring(statement)
        for word in ["CREATE ", "VIRTUAL ", "TABLE ", "IF NOT EXISTS "] where rest.hasPrefix(word) {
            rest = rest.dropFirst(word.count)
        }
        if let (name, _) = quotedName(rest) { return name }
        return rest.split(whereSeparator: { $0 == " " || $0 == "(" }).first.map(String.init)
    }

    // MARK: - Rows

    private func copyRows(into table: TableMapping) throws {
        guard let sourceRootName = plan.sourceEntity(for: table.name),
            let sourceTable = sourceSchema.tables[sourceRootName],
            let root = destinationSchema.entities[table.name]
        else { return }
        // The destination entities whose rows come from the source, with their source.
        var members: [(destination: EntitySchema, source: String)] = []
        for name in root.schema.hierarchyNames {
            guard let schema = destinationSchema.entities[name]?.schema, let from = plan.sourceEntity(for: name) else { continue }
            members.append((schema, from))
        }
        if !sourceTable.hasEntityColumn { members = members.filter { $0.source == sourceRootName } }
        guard !members.isEmpty else { return }

        var names = ["\"_id\""]
        var values = ["src.\"_id\""]
        var arguments: [SQLiteValue] = []
        if table.hasEntityColumn {
            names.append("\"_entity\"")
            if sourceTable.hasEntityColumn {
                values.append("CASE src.\"_entity\" " + members.map {
                    "WHEN \(sqlLiteral($0.source)) THEN \(sqlLiteral($0.destination.name))"
                }.joined(separator: " ") + " END")
            } else {
                values.append(sqlLiteral(members[0].destination.name))
            }
        }
        for column in table.columns {
            var cases: [(source: String, sql: String, arguments: [SQLiteValue])] = []
            for member in members {
                guard member.destination.propertyIndex[column.name] != nil else {
                    cases.append((member.source, "NULL", []))
                    continue
                }
                let (sql, args) = try expression(for: column, in: member.destination, sourceTable: sourceTable)
                cases.append((member.source, sql, args))
            }
            names.append(sqlIdentifier(column.name))
            let first = cases[0]
            if cases.allSatisfy({ $0.sql == first.sql && $0.arguments == first.arguments }) {
                values.append(first.sql)
                arguments += first.arguments
            } else {
                values.append("CASE src.\"_entity\" " + cases.map {
                    "WHEN \(sqlLiteral($0.source)) THEN \($0.sql)"
                }.joined(separator: " ") + " END")
                for c in cases { arguments += c.arguments }
            }
        }
        var sql = "INSERT INTO \(sqlIdentifier(table.name)) (\(names.joined(separator: ", "))) SELECT "
            + values.joined(separator: ", ") + " FROM \(sqlIdentifier(Self.aside(sourceTable.name))) AS src"
        if sourceTable.hasEntityColumn {
            sql += " WHERE src.\"_entity\" IN (\(members.map { sqlLiteral($0.source) }.joined(separator: ", ")))"
        }
        try database.execute(sql, arguments)
    }

    /// The entity among `schema` and its ancestors that declares `property`.
    private func declaringEntity(of property: String, in schema: EntitySchema, model: ManagedObjectModel) -> String {
        for name in [schema.name] + schema.ancestors {
            guard let entity = model.entity(named: name) else { continue }
            if entity.attribute(named: property) != nil || entity.relationship(named: property) != nil { return name }
        }
        return schema.name
    }

    /// The source property a destination property comes from, with its source entity.
    func sourceProperty(of property: String, in schema: EntitySchema) -> (entity: EntitySchema, property: SchemaProperty)? {
        let declaring = declaringEntity(of: property, in: schema, model: plan.destination)
        guard let sourceName = plan.sourceEntity(for: declaring),
            let sourcePropertyName = plan.sourcePropertyNames[declaring]?[property],
            let sourceSchema = plan.source.schema(for: sourceName),
            let position = sourceSchema.propertyIndex[sourcePropertyName]
        else { return nil }
        return (sourceSchema, sourceSchema.properties[position])
    }

    /// The SQL (over `src`, a source row) for one destination column of one entity's rows.
    private func expression(
        for column: TableMapping.Column, in schema: EntitySchema, sourceTable: TableMapping
    ) throws -> (String, [SQLiteValue]) {
        let source = sourceProperty(of: column.name, in: schema)
        switch column.kind {
        case .attribute(let attribute):
            var base: String?
            if case .attribute(let was)? = source?.property, was.isStored, sourceTable.column(named: was.name) != nil {
                base = "src.\(sqlIdentifier(was.name))"
            }
            var fallback: SQLiteValue?
            if !attribute.isDerived, let value = attribute.defaultValue {
                fallback = try RowCodec.encode(value, for: attribute, entity: schema.name)
            }
            switch (base, fallback) {
            case (let base?, let fallback?) where !attribute.isOptional: return ("COALESCE(\(base), ?)", [fallback])
            case (let base?, _): return (base, [])
            case (nil, let fallback?): return ("?", [fallback])
            case (nil, nil): return ("NULL", [])
            }
        case .toOne(let relationship, _):
            if let source, case .relationship(let was) = source.property {
                return try toOneValue(from: links(of: was, in: source.entity), sourceTable: sourceTable, for: schema.name, relationship.name)
            }
            // A new to-one whose inverse existed before: read the links from that side.
            if let inverse = relationship.inverseName,
                let destination = plan.destination.schema(for: relationship.destinationEntityName),
                let other = sourceProperty(of: inverse, in: destination),
                case .relationship(let was) = other.property
            {
                return try toOneValue(
                    from: links(of: was, in: other.entity)?.reversed, sourceTable: sourceTable, for: schema.name, relationship.name)
            }
            return ("NULL", [])
        }
    }

    // MARK: - After the copy

    private func clearDanglingReferences() throws {
        for table in destinationSchema.tables.values.sorted(by: { $0.name < $1.name }) {
            for column in table.columns {
                guard case .toOne(let relationship, let destinationTable) = column.kind,
                    let destination = destinationSchema.entities[relationship.destinationEntityName],
                    let target = destinationSchema.tables[destinationTable]
                else { continue }
                var keys = "SELECT \"_id\" FROM \(sqlIdentifier(target.name))"
                if target.hasEntityColumn {
                    keys += " WHERE \"_entity\" IN (\(destination.schema.hierarchyNames.map(sqlLiteral).joined(separator: ", ")))"
                }
                let name = sqlIdentifier(column.name)
                try database.execute(
                    "UPDATE \(sqlIdentifier(table.name)) SET \(name) = NULL WHERE \(name) IS NOT NULL AND \(name) NOT IN (\(keys))")
            }
        }
    }

    private func renamePrimaryKeyCounters() throws {
        let rows = try database.query("SELECT tableName, lastKey FROM _primarykey")
        try database.execute("DELETE FROM _primarykey")
        for row in rows {
            guard let name = row[0].textValue, let destination = plan.destinationEntity(for: name),
                destinationSchema.tables[destination] != nil
            else { continue }
            try database.execute(
                "INSERT OR REPLACE INTO _primarykey (tableName, lastKey) VALUES (?, ?)", [.text(destination), row[1]])
        }
    }

    private func checkUniqueness() throws {
        for mapping in destinationSchema.entities.values.sorted(by: { $0.schema.name < $1.schema.name }) {
            let table = mapping.table
            for keys in mapping.schema.entity.uniquenessConstraints {
                let columns = keys.compactMap { table.column(named: $0) }
                guard columns.count == keys.count else { continue }
                var conditions = columns.map { "\(sqlIdentifier($0.name)) IS NOT NULL" }
                if table.hasEntityColumn {
                    conditions.append("\"_entity\" IN (\(mapping.schema.hierarchyNames.map(sqlLiteral).joined(separator: ", ")))")
                }
                let grouped = columns.map(\.comparableSQL).joined(separator: ", ")
                let rows = try database.query(
                    "SELECT group_concat(\"_id\", ', '), \(columns.map { sqlIdentifier($0.name) }.joined(separator: ", ")) "
                        + "FROM \(sqlIdentifier(table.name)) WHERE \(conditions.joined(separator: " AND ")) "
                        + "GROUP BY \(grouped) HAVING count(*) > 1 LIMIT 5")
                guard !rows.isEmpty else { continue }
                let groups = rows.map { row -> String in
                    let values = zip(keys, row.dropFirst()).map { "\($0) = \(Self.show($1))" }.joined(separator: ", ")
                    return "objects \(row[0].textValue ?? "") share \(values)"
                }
                throw MigrationError(
                    .constraintViolated, entity: mapping.schema.name,
                    reason: "existing objects violate the uniqueness constraint (\(keys.joined(separator: ", "))): "
                        + groups.joined(separator: "; "))
            }
        }
    }

    private func recordVersionHashes() throws {
        try database.execute("DELETE FROM _metadata WHERE key LIKE 'versionHash.%'")
        for (name, hash) in plan.destination.entityVersionHashesByName {
            try database.execute(
                "INSERT INTO _metadata (key, value) VALUES (?, ?)", [.text("versionHash.\(name)"), .text(hash.hexString)])
        }
        if let version = plan.destination.versionIdentifier {
            try database.execute(
                "INSERT INTO _metadata (key, value) VALUES ('modelVersion', ?) "
                    + "ON CONFLICT(key) DO UPDATE SET value = excluded.value", [.text(version)])
        } else {
            try database.execute("DELETE FROM _metadata WHERE key = 'modelVersion'")
        }
    }
}
