#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceStore

/// Runs one `MigrationPlan` (inferred store-neutrally, in PersistenceStore) on a PostgreSQL
/// store, inside the caller's transaction: PostgreSQL's DDL is transactional, so a failure
/// anywhere rolls every table, column, index and metadata row back.
///
/// Unlike SQLite, PostgreSQL alters tables in place, so nothing is copied: the entity
/// indexes are dropped; tables kept are renamed (through temporary names, so that a swap or
/// a new entity taking an old name is safe) and removed ones dropped; in each table, the
/// columns kept are renamed (again through temporary names), the removed ones dropped and
/// the new ones added, filled with their default value; `_entity` follows renamed and
/// removed sub-entities; attributes and to-ones made required get their default, or the
/// migration is refused naming the objects without a value; join tables follow their
/// relationship's renames; dangling links are cleared; derived values are recomputed; the
/// destination's indexes are created (a uniqueness constraint existing objects violate
/// refuses the migration) and, when the store has them, the search's trigram indexes; the
/// key counters, tombstones and history follow renamed entities; the store records the
/// destination's version hashes. Objects keep their primary keys.
///
/// A to-one that becomes a to-many kept in a join table (a many-to-many, or one without an
/// inverse, ordered or not: Core Data's "to-one to to-many" lightweight change) keeps its
/// links: they are copied from the source column into the new join table, each in the first
/// place of its owner's order, before the column goes. Other changes whose storage moves
/// between a column and a join table, or whose values must be re-encoded, are refused before
/// anything is written (see `unsupportedStep`).
struct PGMigrationExecutor {
    let plan: MigrationPlan
    let connection: PGConnection
    /// The schema (namespace) of the database holding the store.
    let namespace: String
    let source: PGSchema
    let destination: PGSchema

    init(plan: MigrationPlan, connection: PGConnection, namespace: String) {
        self.plan = plan
        self.connection = connection
        self.namespace = namespace
        self.source = PGSchema(model: plan.source)
        self.destination = PGSchema(model: plan.destination)
    }

    /// The step of the plan this store cannot run, with why; nil when it can run them all.
    static func unsupportedStep(of plan: MigrationPlan) -> (step: MigrationStep, reason: String)? {
        for step in plan.steps {
            switch step.kind {
            case .changeCardinality where linksMoveIntoAJoinTable(step, plan: plan):
                continue
            case .changeOrdering where linksMoveIntoAJoinTable(step, plan: plan):
                continue
            case .changeCardinality, .changeOrdering, .changeDestination:
                return (step, "a relationship's storage changes shape (\(step.detail)), which the PostgreSQL store does not migrate yet")
            case .changeTransformer:
                return (step, "a value transformer changes, which the PostgreSQL store does not migrate yet")
            case .recomputeDerived:
                let expression = plan.destination.entity(named: step.entity)?
                    .attribute(named: step.property ?? "")?.derivationExpression ?? ""
                switch try? Derivation(parsing: expression) {
                case .canonical?, .lowercase?, .uppercase?, .now?: continue
                default:
                    return (step, "the derived value \(expression) would be recomputed, which the PostgreSQL store does only for canonical:, lowercase:, uppercase: and now()")
                }
            default: continue
            }
        }
        return nil
    }

    /// Whether `step` changes a relationship kept in a column of the source into one whose
    /// links the destination keeps in a join table (``copyLinksIntoNewJoinTables()``).
    private static func linksMoveIntoAJoinTable(_ step: MigrationStep, plan: MigrationPlan) -> Bool {
        guard let property = step.property,
            let now = plan.destination.schemas[step.entity]?.relationship(named: property), now.isToMany,
            PGSchema(model: plan.destination).joinSide(entity: step.entity, relationship: property) != nil,
            let sourceEntity = plan.sourceEntity(for: step.entity)
        else { return false }
        let was = plan.sourcePropertyNames[step.entity]?[property] ?? property
        guard let before = plan.source.schemas[sourceEntity]?.relationship(named: was) else { return false }
        return !before.isToMany && !before.isTransient
    }

    func run() throws {
        if let (step, reason) = Self.unsupportedStep(of: plan) {
            throw MigrationError(.cannotInfer, entity: step.entity, property: step.property, reason: reason)
        }
        try dropEntityIndexes()
        try moveTables()
        try copyLinksIntoNewJoinTables()
        for table in destination.tables.values.sorted(by: { $0.name < $1.name }) where plan.sourceEntity(for: table.name) != nil {
            try reshape(table)
        }
        try clearDanglingReferences()
        try recomputeDerivedValues()
        try createIndexes()
        try renameEntitiesInBookkeeping()
        try recordVersionHashes()
    }

    // MARK: - Tables

    /// The tables of the source schema that exist: entity tables and join tables.
    private var sourceTableNames: [String] {
        Array(source.tables.keys).sorted() + source.joinTables.map(\.name)
    }

    private func dropEntityIndexes() throws {
        let names = sourceTableNames
        guard !names.isEmpty else { return }
        let placeholders = names.indices.map { "$\($0 + 2)" }.joined(separator: ", ")
        let rows = try connection.query(
            "SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
                + "JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace "
                + "WHERE n.nspname = $1 AND NOT x.indisprimary AND t.relname IN (\(placeholders))",
            [.text(namespace)] + names.map { .text($0) })
        for case let name? in rows.map({ $0.first ?? nil }) {
            try connection.execute("DROP INDEX \(pgIdentifier(namespace)).\(pgIdentifier(name))")
        }
    }

    private static func aside(_ name: String) -> String { "_migrating_" + name }

    /// Renames kept entity and join tables to their destination names, drops the removed
    /// ones and creates the new ones.
    private func moveTables() throws {
        // Source table → destination table, for entity tables and join tables kept.
        var kept: [String: String] = [:]
        for table in destination.tables.keys {
            if let from = plan.sourceEntity(for: table), source.tables[from] != nil { kept[from] = table }
        }
        for join in destination.joinTables {
            if let from = try sourceJoinTable(of: join) { kept[from.name] = join.name }
        }
        try refuseLosingLinks(keptJoinTables: Set(kept.keys))
        for name in sourceTableNames where kept[name] == nil {
            try connection.execute("DROP TABLE IF EXISTS \(pgIdentifier(name))")
        }
        for (from, to) in kept where from != to {
            try connection.execute("ALTER TABLE \(pgIdentifier(from)) RENAME TO \(pgIdentifier(Self.aside(to)))")
        }
        for (from, to) in kept where from != to {
            try connection.execute("ALTER TABLE \(pgIdentifier(Self.aside(to))) RENAME TO \(pgIdentifier(to))")
        }
        let made = Set(kept.values)
        for statement in destination.createStatements where statement.hasPrefix("CREATE TABLE ") {
            let isNew = !made.contains { statement.hasPrefix("CREATE TABLE \(pgIdentifier($0)) (") }
            if isNew { try connection.execute(statement) }
        }
    }

    /// Refuses a join table that would be dropped while a relationship keeping its links in
    /// it is still in the destination (its links would move to a column, which this store
    /// does not migrate yet).
    private func refuseLosingLinks(keptJoinTables: Set<String>) throws {
        for (entity, sides) in source.joinSides.sorted(by: { $0.key < $1.key }) {
            for (relationship, side) in sides.sorted(by: { $0.key < $1.key }) where !keptJoinTables.contains(side.table.name) {
                guard let now = plan.destinationEntity(for: entity),
                    let kept = plan.destination.schemas[now]?.properties.first(where: { property in
                        guard case .relationship(let r) = property, !r.isTransient else { return false }
                        return sourceProperty(of: r.name, in: now)?.property == relationship
                    })
                else { continue }
                throw MigrationError(
                    .cannotInfer, entity: now, property: kept.name,
                    reason: "its links move out of the join table \(side.table.name), which the PostgreSQL store "
                        + "does not migrate yet")
            }
        }
    }

    /// The source join table a destination join table continues, if any: the one of the
    /// source relationship its source side comes from, laid out alike.
    private func sourceJoinTable(of join: PGSchema.JoinTable) throws -> PGSchema.JoinTable? {
        for (entity, sides) in destination.joinSides.sorted(by: { $0.key < $1.key }) {
            for (relationship, side) in sides.sorted(by: { $0.key < $1.key }) where side.table == join {
                guard let (sourceEntity, sourceRelationship) = sourceProperty(of: relationship, in: entity),
                    let was = source.joinSide(entity: sourceEntity, relationship: sourceRelationship)
                else { continue }
                guard was.isSource == side.isSource, was.table.hasPosition == join.hasPosition,
                    was.table.hasInversePosition == join.hasInversePosition
                else {
                    throw MigrationError(
                        .cannotInfer, entity: entity, property: relationship,
                        reason: "its join table changes layout, which the PostgreSQL store does not migrate yet")
                }
                return was.table
            }
        }
        return nil
    }

    /// The source entity and property a destination entity's property comes from.
    private func sourceProperty(of property: String, in entity: String) -> (entity: String, property: String)? {
        guard let schema = plan.destination.schemas[entity] else { return nil }
        for name in [entity] + schema.ancestors {
            if let was = plan.sourcePropertyNames[name]?[property], let sourceEntity = plan.sourceEntity(for: entity) {
                return (sourceEntity, was)
            }
            if plan.destination.entity(named: name)?.attribute(named: property) != nil
                || plan.destination.entity(named: name)?.relationship(named: property) != nil
            {
                return nil
            }
        }
        return nil
    }

    /// Copies the links of each source to-one that the destination keeps in a join table the
    /// source did not have, from the to-one's column (in the owner's table, renamed by now,
    /// its columns not yet) into the join table: the owner's side, the destination's side,
    /// and position 0 in an ordered relationship (a to-one held one object).
    private func copyLinksIntoNewJoinTables() throws {
        for (entity, sides) in destination.joinSides.sorted(by: { $0.key < $1.key }) {
            for (relationship, side) in sides.sorted(by: { $0.key < $1.key }) {
                guard (try? sourceJoinTable(of: side.table)) == nil,
                    let (sourceEntity, was) = sourceProperty(of: relationship, in: entity) ?? ownName(relationship, entity),
                    let before = plan.source.schemas[sourceEntity]?.relationship(named: was), !before.isToMany,
                    !before.isTransient, let ownTable = destination.entities[entity]?.table
                else { continue }
                var columns = [pgIdentifier(side.ownColumn), pgIdentifier(side.otherColumn)]
                var values = ["\"_id\"", pgIdentifier(was)]
                if let position = side.positionColumn, side.isOrdered {
                    columns.append(pgIdentifier(position))
                    values.append("0")
                }
                // `_entity` still holds the source's names: it is renamed with the columns.
                var condition = "\(pgIdentifier(was)) IS NOT NULL"
                if let schema = plan.source.schemas[sourceEntity], source.tables[schema.rootName]?.hasEntityColumn == true {
                    condition += " AND " + PGSchema.entityCondition(schema.hierarchyNames)
                }
                try connection.execute(
                    "INSERT INTO \(pgIdentifier(side.table.name)) (\(columns.joined(separator: ", "))) "
                        + "SELECT \(values.joined(separator: ", ")) FROM \(pgIdentifier(ownTable.name)) WHERE \(condition) "
                        + "ON CONFLICT DO NOTHING")
            }
        }
    }

    /// A property that keeps its name and entity, when `sourceProperty` finds none renamed.
    private func ownName(_ property: String, _ entity: String) -> (entity: String, property: String)? {
        guard let sourceEntity = plan.sourceEntity(for: entity),
            plan.source.schemas[sourceEntity]?.relationship(named: property) != nil
        else { return nil }
        return (sourceEntity, property)
    }

    // MARK: - Columns

    /// Brings one kept table's columns and `_entity` values in line with the destination.
    private func reshape(_ table: PGSchema.Table) throws {
        guard let sourceRoot = plan.sourceEntity(for: table.name), let was = source.tables[sourceRoot] else { return }
        let name = pgIdentifier(table.name)
        let members = destination.entities.values.filter { $0.table.name == table.name }.map(\.schema.name).sorted()
        // Rows of sub-entities that are gone, then `_entity` renamed.
        if was.hasEntityColumn {
            let sourceMembers = source.entities.values.filter { $0.table.name == was.name }.map(\.schema.name)
            let removed = sourceMembers.filter { plan.destinationEntity(for: $0) == nil }.sorted()
            if !removed.isEmpty {
                try connection.execute("DELETE FROM \(name) WHERE \(PGSchema.entityCondition(removed))")
            }
            // One statement, so that two sub-entities swapping names cannot mix.
            var cases: [String] = []
            var arguments: [PGValue] = []
            for member in sourceMembers.sorted() {
                guard let now = plan.destinationEntity(for: member), now != member else { continue }
                cases.append("WHEN $\(arguments.count + 1) THEN $\(arguments.count + 2)")
                arguments += [.text(member), .text(now)]
            }
            if !cases.isEmpty {
                try connection.execute(
                    "UPDATE \(name) SET \"_entity\" = CASE \"_entity\" \(cases.joined(separator: " ")) ELSE \"_entity\" END",
                    arguments)
            }
            if !table.hasEntityColumn { try connection.execute("ALTER TABLE \(name) DROP COLUMN \"_entity\"") }
        } else if table.hasEntityColumn {
            try connection.execute("ALTER TABLE \(name) ADD COLUMN \"_entity\" text")
            try connection.execute("UPDATE \(name) SET \"_entity\" = $1", [.text(table.name)])
            try connection.execute("ALTER TABLE \(name) ALTER COLUMN \"_entity\" SET NOT NULL")
        }
        // Destination column → the source column it continues.
        var continues: [String: String] = [:]
        for column in table.columns {
            guard let owner = members.first(where: { plan.destination.schemas[$0]?.propertyIndex[column.name] != nil }),
                let (_, property) = sourceProperty(of: column.name, in: owner),
                let old = was.column(named: property), Self.sameStorage(old, column),
                !continues.values.contains(property)
            else { continue }
            continues[column.name] = property
        }
        let claimed = Set(continues.values)
        for old in was.columns where !claimed.contains(old.name) {
            try connection.execute("ALTER TABLE \(name) DROP COLUMN \(pgIdentifier(old.name))")
        }
        let renamed = continues.filter { $0.key != $0.value }
        for (to, from) in renamed {
            try connection.execute("ALTER TABLE \(name) RENAME COLUMN \(pgIdentifier(from)) TO \(pgIdentifier(Self.aside(to)))")
        }
        for (to, _) in renamed {
            try connection.execute("ALTER TABLE \(name) RENAME COLUMN \(pgIdentifier(Self.aside(to))) TO \(pgIdentifier(to))")
        }
        for column in table.columns {
            let isNew = continues[column.name] == nil
            if isNew {
                try connection.execute("ALTER TABLE \(name) ADD COLUMN \(pgIdentifier(column.name)) \(column.sqlType)")
            }
            try fillRequiredValue(of: column, in: table, isNew: isNew, members: members)
        }
    }

    /// Whether a source column's values can stay as a destination column's (same kind; an
    /// integer or floating-point widening keeps the PostgreSQL type).
    private static func sameStorage(_ old: PGSchema.Column, _ new: PGSchema.Column) -> Bool {
        switch (old.kind, new.kind) {
        case (.attribute, .attribute): return old.sqlType == new.sqlType
        case (.toOne, .toOne): return true
        default: return false
        }
    }

    /// Gives a new column its default value, and a column made required its default where
    /// it has none; refuses, naming the objects, when a required column has no default and
    /// objects have no value.
    private func fillRequiredValue(of column: PGSchema.Column, in table: PGSchema.Table, isNew: Bool, members: [String]) throws {
        let owners = members.filter { plan.destination.schemas[$0]?.propertyIndex[column.name] != nil }
        var condition = "\(pgIdentifier(column.name)) IS NULL"
        if table.hasEntityColumn { condition += " AND " + PGSchema.entityCondition(owners) }
        let name = pgIdentifier(table.name)
        var isOptional = true
        var entity = owners.first ?? table.name
        switch column.kind {
        case .attribute(let attribute):
            if attribute.isDerived { return }  // recomputed later
            if let value = attribute.defaultValue, isNew || !attribute.isOptional {
                let encoded = try PGRowCodec.encode(value, for: attribute, entity: entity)
                try connection.execute("UPDATE \(name) SET \(pgIdentifier(column.name)) = $1 WHERE \(condition)", [encoded])
                return
            }
            isOptional = attribute.isOptional
        case .toOne:
            for owner in owners {
                if let r = plan.destination.schemas[owner]?.relationship(named: column.name) {
                    isOptional = r.isOptional
                    entity = owner
                }
            }
        }
        guard !isOptional else { return }
        let rows = try connection.query("SELECT \"_id\" FROM \(name) WHERE \(condition) ORDER BY \"_id\" LIMIT 6")
        guard !rows.isEmpty else { return }
        let keys = rows.prefix(5).compactMap { $0.first ?? nil }.joined(separator: ", ") + (rows.count > 5 ? ", …" : "")
        throw MigrationError(
            .invalidData, entity: entity, property: column.name,
            reason: "it becomes required and has no default value, but objects \(keys) have no value")
    }

    // MARK: - After the columns

    private func clearDanglingReferences() throws {
        for table in destination.tables.values.sorted(by: { $0.name < $1.name }) {
            for column in table.columns {
                guard case .toOne(let destinationEntity, let destinationTable) = column.kind,
                    let target = destination.tables[destinationTable],
                    let hierarchy = plan.destination.schemas[destinationEntity]?.hierarchyNames
                else { continue }
                var keys = "SELECT \"_id\" FROM \(pgIdentifier(target.name))"
                if target.hasEntityColumn { keys += " WHERE " + PGSchema.entityCondition(hierarchy) }
                let c = pgIdentifier(column.name)
                try connection.execute(
                    "UPDATE \(pgIdentifier(table.name)) SET \(c) = NULL WHERE \(c) IS NOT NULL AND \(c) NOT IN (\(keys))")
            }
        }
        for join in destination.joinTables {
            let t = pgIdentifier(join.name)
            try connection.execute(
                "DELETE FROM \(t) WHERE \"source\" NOT IN (SELECT \"_id\" FROM \(pgIdentifier(join.sourceTable))) "
                    + "OR \"destination\" NOT IN (SELECT \"_id\" FROM \(pgIdentifier(join.destinationTable)))")
        }
    }

    /// Recomputes the derived values the plan lists (see `unsupportedStep` for which).
    private func recomputeDerivedValues() throws {
        for step in plan.steps where step.kind == .recomputeDerived {
            guard let property = step.property, let mapping = destination.entities[step.entity],
                let attribute = mapping.schema.entity.attribute(named: property),
                let derivation = try? Derivation(parsing: attribute.derivationExpression ?? "")
            else { continue }
            let table = pgIdentifier(mapping.table.name)
            let column = pgIdentifier(property)
            let own = mapping.table.hasEntityColumn ? " WHERE " + PGSchema.entityCondition(mapping.schema.hierarchyNames) : ""
            let fold: (String) -> String
            let key: String
            switch derivation {
            case .canonical(let k): (fold, key) = (CanonicalText.fold, k)
            case .lowercase(let k): (fold, key) = ({ $0.lowercased() }, k)
            case .uppercase(let k): (fold, key) = ({ $0.uppercased() }, k)
            case .now:
                try connection.execute(
                    "UPDATE \(table) SET \(column) = extract(epoch FROM clock_timestamp())::double precision"
                        + (own.isEmpty ? " WHERE " : own + " AND ") + "\(column) IS NULL")
                continue
            default: continue
            }
            let rows = try connection.query("SELECT \"_id\", \(pgIdentifier(key)) FROM \(table)\(own)")
            for row in rows {
                guard let id = row[0] else { continue }
                let value: PGValue = row[1].map { .text(PGRowCodec.escape(fold(PGRowCodec.unescape($0)))) } ?? .null
                try connection.execute("UPDATE \(table) SET \(column) = $1 WHERE \"_id\" = $2::bigint", [value, .text(id)])
            }
        }
    }

    private func createIndexes() throws {
        var statements = destination.createStatements.filter { $0.hasPrefix("CREATE INDEX ") || $0.hasPrefix("CREATE UNIQUE INDEX ") }
        if try connection.scalar("SELECT value FROM _metadata WHERE key = 'trigramIndexes'") == "1" {
            statements += destination.searchIndexStatements
        }
        for statement in statements {
            var sql = statement
            for prefix in ["CREATE INDEX ", "CREATE UNIQUE INDEX "] where sql.hasPrefix(prefix) && !sql.hasPrefix(prefix + "IF NOT EXISTS") {
                sql = prefix + "IF NOT EXISTS " + sql.dropFirst(prefix.count)
            }
            do {
                try connection.execute(sql)
            } catch let error as PostgreSQLError where error.sqlState == "23505" {
                throw MigrationError(
                    .constraintViolated,
                    reason: "existing objects violate a uniqueness constraint of the new model (\(error.message))")
            }
        }
    }

    /// Follows renamed entities in the key counters, the tombstones and the history.
    private func renameEntitiesInBookkeeping() throws {
        // Read, emptied and written again, so that two tables swapping names cannot collide.
        let counters = try connection.query("SELECT \"tableName\", \"lastKey\" FROM _primarykey")
        try connection.execute("DELETE FROM _primarykey")
        for row in counters {
            guard let name = row[0], let last = row[1], let now = plan.destinationEntity(for: name),
                destination.tables[now] != nil
            else { continue }
            try connection.execute(
                "INSERT INTO _primarykey (\"tableName\", \"lastKey\") VALUES ($1, $2::bigint)", [.text(now), .text(last)])
        }
        let tables = Set(try connection.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1", [.text(namespace)]
        ).compactMap { $0.first ?? nil })
        for table in ["_tombstone", "_historyChange"] where tables.contains(table) {
            for (now, was) in plan.sourceEntityNames.sorted(by: { $0.key < $1.key }) where now != was {
                try connection.execute(
                    "UPDATE \(pgIdentifier(table)) SET entity = $1 WHERE entity = $2", [.text(now), .text(was)])
            }
        }
    }

    private func recordVersionHashes() throws {
        try connection.execute("DELETE FROM _metadata WHERE key LIKE 'versionHash.%'")
        for (name, hash) in MigrationPlan.recordedVersionHashes(of: plan.destination).sorted(by: { $0.key < $1.key }) {
            try connection.execute(
                "INSERT INTO _metadata (key, value) VALUES ($1, $2)", [.text("versionHash.\(name)"), .text(hash)])
        }
        if let version = plan.destination.versionIdentifier {
            try connection.execute(
                "INSERT INTO _metadata (key, value) VALUES ('modelVersion', $1) "
                    + "ON CONFLICT (key) DO UPDATE SET value = excluded.value", [.text(PGRowCodec.escape(version))])
        } else {
            try connection.execute("DELETE FROM _metadata WHERE key = 'modelVersion'")
        }
    }
}
#endif
