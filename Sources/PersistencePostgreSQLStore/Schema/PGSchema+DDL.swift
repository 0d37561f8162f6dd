#if PostgreSQL
import PersistenceModel
import PersistenceStore

extension PGSchema {
    /// The statements that create every table, index and join table of the model, in order
    /// (one transaction runs them: PostgreSQL's DDL is transactional).
    ///
    /// Each join table has a `_seq` column (`bigserial`), its insertion order, which an
    /// unordered to-many reads back in (SQLite's `rowid`).
    package var createStatements: [String] {
        var statements: [String] = []
        for table in tables.values.sorted(by: { $0.name < $1.name }) {
            var columns = ["\"_id\" bigint PRIMARY KEY"]
            if table.hasEntityColumn { columns.append("\"_entity\" text NOT NULL") }
            columns.append("\"_opt\" bigint NOT NULL DEFAULT 1")
            columns += table.columns.map { "\(pgIdentifier($0.name)) \($0.sqlType)" }
            statements.append("CREATE TABLE \(pgIdentifier(table.name)) (\(columns.joined(separator: ", ")))")
        }
        statements += indexStatements
        for join in joinTables {
            let t = pgIdentifier(join.name)
            var columns = ["\"_seq\" bigserial", "\"source\" bigint NOT NULL", "\"destination\" bigint NOT NULL"]
            if join.hasPosition { columns.append("\"position\" bigint") }
            if join.hasInversePosition { columns.append("\"inversePosition\" bigint") }
            statements.append("CREATE TABLE \(t) (\(columns.joined(separator: ", ")))")
            statements.append(
                "CREATE UNIQUE INDEX \(pgIdentifier(join.name + "_source_destination")) ON \(t) (\"source\", \"destination\")")
            statements.append(
                "CREATE INDEX \(pgIdentifier(join.name + "_destination_source")) ON \(t) (\"destination\", \"source\")")
        }
        return statements
    }

    /// The trigram indexes of the search: a GIN index per stored canonical attribute indexed
    /// for search (`pg_trgm`), which a search's `LIKE '%word%'` uses. Made only when the
    /// extension can be created.
    package var searchIndexStatements: [String] {
        var statements: [String] = []
        var made: Set<String> = []
        for entity in entities.values.sorted(by: { $0.schema.name < $1.schema.name }) {
            for attribute in entity.schema.entity.attributes where attribute.isIndexedBySpotlight && attribute.isStored {
                guard attribute.type == .string, entity.table.column(named: attribute.name) != nil else { continue }
                let name = "\(entity.table.name)_\(attribute.name)_trgm"
                guard made.insert(name).inserted else { continue }
                statements.append(
                    "CREATE INDEX IF NOT EXISTS \(pgIdentifier(name)) ON \(pgIdentifier(entity.table.name)) "
                        + "USING gin (\(pgIdentifier(attribute.name)) gin_trgm_ops)")
            }
        }
        return statements
    }

    /// Indexes: indexed attributes, to-one columns, entity column, and a UNIQUE index per
    /// uniqueness constraint (partial over the entity's own rows when it shares its table).
    private var indexStatements: [String] {
        var result: [String] = []
        var made: Set<String> = []
        func add(_ table: Table, _ name: String, _ keys: [String], unique: Bool, entities: [String]?) {
            guard made.insert(name).inserted else { return }
            var sql = "CREATE \(unique ? "UNIQUE " : "")INDEX \(pgIdentifier(name)) ON \(pgIdentifier(table.name)) "
                + "(\(keys.map(pgIdentifier).joined(separator: ", ")))"
            if let entities, table.hasEntityColumn {
                sql += " WHERE " + Self.entityCondition(entities)
            }
            result.append(sql)
        }
        for mapping in entities.values.sorted(by: { $0.schema.name < $1.schema.name }) {
            let entity = mapping.schema.entity
            let table = mapping.table
            let own = mapping.schema.ancestors.isEmpty ? nil : mapping.schema.hierarchyNames
            if table.hasEntityColumn { add(table, "\(table.name)__entity_index", ["_entity"], unique: false, entities: nil) }
            for attribute in entity.attributes where attribute.isIndexed && table.column(named: attribute.name) != nil {
                add(table, "\(entity.name)_\(attribute.name)_index", [attribute.name], unique: false, entities: nil)
            }
            for relationship in entity.relationships where table.column(named: relationship.name) != nil {
                add(table, "\(entity.name)_\(relationship.name)_index", [relationship.name], unique: false, entities: nil)
            }
            for keys in entity.uniquenessConstraints {
                add(table, uniqueIndexName(entity: entity.name, keys: keys), keys, unique: true, entities: own)
            }
        }
        return result
    }

    /// The name of the UNIQUE index of a uniqueness constraint.
    package func uniqueIndexName(entity: String, keys: [String]) -> String {
        "\(entity)_unique_\(keys.joined(separator: "_"))"
    }

    /// `"_entity" IN ('A', 'B')`: entity names are the model's, checked by `ModelValidator`
    /// to be plain identifiers, and quoted as literals with quotes doubled all the same. Used
    /// in DDL (partial indexes), where no parameter can be bound, and in ON CONFLICT targets
    /// that must repeat an index's predicate word for word.
    package static func entityCondition(_ names: [String]) -> String {
        "\"_entity\" IN (\(names.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", ")))"
    }
}
#endif
