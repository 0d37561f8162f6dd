import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// Quotes an SQL string literal, doubling embedded quotes. Used for names in DDL only;
/// values are always bound as parameters.
package func sqlLiteral(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}

extension StoreSchema {
    /// The statements that create every table and index of the model, in order.
    ///
    /// Decimal columns are TEXT holding the exact canonical digits; they compare numerically
    /// through the `DECIMAL` collation the store registers, which their indexes use.
    package var createStatements: [String] {
        var statements: [String] = []
        for table in tables.values.sorted(by: { $0.name < $1.name }) {
            var columns = ["\"_id\" INTEGER PRIMARY KEY"]
            if table.hasEntityColumn { columns.append("\"_entity\" TEXT NOT NULL") }
            columns.append(Self.versionColumnDefinition)
            columns += table.columns.map { "\(sqlIdentifier($0.name)) \($0.kind.sqlType)" }
            statements.append(
                "CREATE TABLE \(sqlIdentifier(table.name)) (\(columns.joined(separator: ", ")))")
        }
        for index in indexes { statements.append(index) }
        for join in joinTables { statements += join.createStatements }
        return statements
    }

    /// The version column every table of rows has (Core Data's `Z_OPT`): 1 for a new row,
    /// bumped by each write of it. A store written before it existed gains it on its first
    /// writable open (`SQLiteStore.addMissingVersionColumns`), every row at version 1.
    package static let versionColumnDefinition = "\"_opt\" INTEGER NOT NULL DEFAULT 1"

    /// CREATE INDEX statements: entity indexes, `indexed` attributes, to-one columns, and a
    /// UNIQUE index per uniqueness constraint (partial, over the entity's own rows, when the
    /// entity shares its table with others).
    private var indexes: [String] {
        var result: [String] = []
        var made: Set<String> = []
        func add(
            _ table: TableMapping, _ name: String, _ keys: [String], descending: Set<String> = [], unique: Bool,
            entities: [String]?
        ) {
            guard !made.contains(name) else { return }
            made.insert(name)
            let columns = keys.map { key in
                (table.column(named: key)?.comparableSQL ?? sqlIdentifier(key)) + (descending.contains(key) ? " DESC" : "")
            }
            var sql = "CREATE \(unique ? "UNIQUE " : "")INDEX \(sqlIdentifier(name)) ON "
                + "\(sqlIdentifier(table.name)) (\(columns.joined(separator: ", ")))"
            if let entities, table.hasEntityColumn {
                sql += " WHERE \"_entity\" IN (\(entities.map(sqlLiteral).joined(separator: ", ")))"
            }
            result.append(sql)
        }
        for mapping in entities.values.sorted(by: { $0.schema.name < $1.schema.name }) {
            let entity = mapping.schema.entity
            let table = mapping.table
            let stored = table.columnPositions
            let own = mapping.schema.ancestors.isEmpty ? nil : mapping.schema.hierarchyNames
            for attribute in entity.attributes where attribute.isIndexed && stored[attribute.name] != nil {
                add(table, "\(entity.name)_\(attribute.name)_index", [attribute.name], unique: false, entities: nil)
            }
            for relationship in entity.relationships where stored[relationship.name] != nil {
                add(table, "\(entity.name)_\(relationship.name)_index", [relationship.name], unique: false, entities: nil)
            }
            // A fetch index keeps each element's order (Xcode's `order="descending"`); an
            // index a store already has keeps the order it was made with (indexes are made
            // when missing, by name). An R-tree element never gets here: `model validate`
            // refuses it, naming the index.
            for fetchIndex in entity.fetchIndexes {
                let elements = fetchIndex.elements.filter { stored[$0.property] != nil }
                let descending = Set(elements.filter { !$0.isAscending }.map(\.property))
                if !elements.isEmpty {
                    add(
                        table, "\(entity.name)_\(fetchIndex.name)", elements.map(\.property), descending: descending,
                        unique: false, entities: nil)
                }
            }
            for keys in entity.compoundIndexes {
                let keys = keys.filter { stored[$0] != nil }
                if !keys.isEmpty {
                    add(table, "\(entity.name)_\(keys.joined(separator: "_"))_index", keys, unique: false, entities: nil)
                }
            }
            for keys in entity.uniquenessConstraints {
                add(table, uniqueIndexName(entity: entity.name, keys: keys), keys, unique: true, entities: own)
            }
        }
        return result
    }

    /// The name of the UNIQUE index that enforces a uniqueness constraint.
    package func uniqueIndexName(entity: String, keys: [String]) -> String {
        "\(entity)_unique_\(keys.joined(separator: "_"))"
    }
}
