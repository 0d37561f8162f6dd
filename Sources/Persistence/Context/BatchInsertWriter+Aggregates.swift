import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteStore

/// Derived `@count` and `@sum` values that destinations keep over the to-manys batch rows
/// join or leave (`Author.bookCount` = `books.@count`).
///
/// A save of objects recomputes them because the destination changes through the inverse;
/// batch rows make no objects, so the writer recomputes them from the store once the rows
/// are written: for every destination a row linked to, and, when rows merged into stored
/// ones, for every destination a merged row left. The latter are caught by a temporary
/// trigger on the link's column, which sees each old value as SQLite replaces it, whatever
/// unique index the merge went through.
extension BatchInsertWriter {
    /// A to-one the rows may set whose inverse some destination entity aggregates over.
    struct AggregatedLink {
        /// The to-one's name (its column).
        let name: String
        /// The to-many on the destination's side.
        let inverse: String
        /// The entity that declares the to-one: its rows (sub-entities' included) make up the
        /// inverse to-many.
        let declaringEntity: String
        /// The destination entity.
        let destination: String
    }

    /// The to-ones whose inverse a destination entity, or one of its sub-entities, keeps a
    /// derived `@count` or `@sum` over.
    static func aggregatedLinks(of template: BatchInsertTemplate, positions: [Int], model: ManagedObjectModel) -> [AggregatedLink] {
        positions.compactMap { position in
            guard case .relationship(let toOne) = template.schema.properties[position], let inverseName = toOne.inverseName,
                let destination = model.schema(for: toOne.destinationEntityName),
                let inverse = destination.relationship(named: inverseName)
            else { return nil }
            let aggregated = destination.hierarchyNames.contains { name in
                model.schema(for: name)?.derivations.contains { $0.derivation.aggregatedRelationship == inverseName } ?? false
            }
            guard aggregated else { return nil }
            return AggregatedLink(
                name: toOne.name, inverse: inverseName, declaringEntity: inverse.destinationEntityName,
                destination: toOne.destinationEntityName)
        }
    }

    /// The temporary trigger for a link: it records each destination a merged row leaves.
    /// (SQLite allows no qualified names in a trigger's body; a temporary trigger finds the
    /// temporary table first.)
    private func leaveTrigger(_ link: AggregatedLink) -> (name: String, sql: String) {
        let table = plan.mapping.table.name
        let name = "_batch_left_\(table)_\(link.name)"
        let column = sqlIdentifier(link.name)
        return (name, """
            CREATE TEMP TRIGGER \(sqlIdentifier(name)) AFTER UPDATE OF \(column) ON main.\(sqlIdentifier(table)) \
            WHEN old.\(column) IS NOT NULL AND old.\(column) IS NOT new.\(column) \
            BEGIN INSERT INTO "_batch_left" VALUES (\(sqlLiteral(link.name)), old.\(column)); END
            """)
    }

    /// Runs `body`, the writing of the rows, noting the destinations that merged rows leave;
    /// returns them by link name.
    func notingDestinationsLeft(_ body: () throws -> Void) throws -> [(link: String, key: Int64)] {
        guard updatesConflicts, !aggregatedLinks.isEmpty else {
            try body()
            return []
        }
        let database = context.store.database
        let triggers = aggregatedLinks.map(leaveTrigger)
        try database.execute("CREATE TEMP TABLE IF NOT EXISTS \"_batch_left\" (\"link\" TEXT, \"key\" INTEGER)")
        for trigger in triggers { try database.execute(trigger.sql) }
        defer {
            // Temporary, and rolled back with the transaction anyway; dropped so that the
            // connection's next batch starts clean.
            for trigger in triggers { try? database.execute("DROP TRIGGER IF EXISTS temp.\(sqlIdentifier(trigger.name))") }
            try? database.execute("DROP TABLE IF EXISTS temp.\"_batch_left\"")
        }
        try body()
        return try database.query("SELECT DISTINCT \"link\", \"key\" FROM temp.\"_batch_left\"").compactMap { row in
            guard let link = row[0].textValue, let key = row[1].int64Value else { return nil }
            return (link, key)
        }
    }

    /// Recomputes and writes the aggregates of every destination the rows linked to or left.
    /// Registered destinations get the new values as saved (not as changes).
    ///
    /// - Parameters:
    ///   - linked: every destination a row linked to.
    ///   - left: the destinations merged rows left, by link name and key.
    /// - Throws: `ObjectAccessError` when a value does not fit its attribute; `SQLiteError`.
    func updateAggregates(linked: some Sequence<ManagedObject>, left: [(link: String, key: Int64)]) throws {
        guard !aggregatedLinks.isEmpty else { return }
        let store = context.store
        var done: Set<TrumpedRow> = []
        for destination in linked {
            guard let key = destination.rowKey,
                done.insert(TrumpedRow(rootName: destination.schema.rootName, key: key)).inserted
            else { continue }
            try updateAggregates(of: destination.schema, key: key, object: destination)
        }
        for (name, key) in left {
            guard let link = aggregatedLinks.first(where: { $0.name == name }),
                let root = store.model.schema(for: link.destination).flatMap({ store.model.schema(for: $0.rootName) }),
                let table = store.schema.entities[root.name]?.table,
                done.insert(TrumpedRow(rootName: root.name, key: key)).inserted
            else { continue }
            // The row's own entity, which may be a sub-entity with aggregates of its own.
            var schema = root
            if table.hasEntityColumn,
                let entity = try store.database.scalar(
                    "SELECT \"_entity\" FROM \(sqlIdentifier(table.name)) WHERE \"_id\" = ?", [.integer(key)]).textValue
            {
                schema = store.model.schema(for: entity) ?? root
            }
            let id = ObjectID(scope: store.idScope(entityName: schema.name, rootName: schema.rootName), key: .permanent(key))
            try updateAggregates(of: schema, key: key, object: context.registry[id]?.object)
        }
    }

    /// Recomputes and writes one destination's aggregates over the links' inverses.
    private func updateAggregates(of schema: EntitySchema, key: Int64, object: ManagedObject?) throws {
        let store = context.store
        for (position, derivation) in schema.derivations {
            guard let relationship = derivation.aggregatedRelationship,
                let link = aggregatedLinks.first(where: { $0.inverse == relationship && schema.isKind(of: $0.destination) }),
                let members = store.schema.entities[link.declaringEntity]
            else { continue }
            let raw: AttributeValue
            do {
                raw = try aggregate(derivation, over: members, linkedBy: link.name, to: key)
            } catch let error as DecimalSumError {
                throw ObjectAccessError(
                    entity: schema.name, key: schema.plans[position].name, reason: "it derives '\(derivation)', but \(error)")
            }
            guard let value = try DerivedValues.converted(raw, at: position, of: schema, derivation: derivation),
                let mapping = store.schema.entities[schema.name], let column = mapping.columnIndex[position],
                case .attribute(let attribute) = schema.properties[position]
            else { continue }
            try store.updateRow(
                mapping, primaryKey: key, columns: [column], values: [RowCodec.encode(value, for: attribute, entity: schema.name)])
            guard let object, !object.isFault else { continue }
            object.setAttributeValue(value, at: position, notify: false)
            object.committedSlots?[position] = .value(value)
        }
    }

    /// The `@count` or `@sum` over the stored rows of `members`' entity whose to-one `link`
    /// holds `key`.
    private func aggregate(
        _ derivation: Derivation, over members: EntityMapping, linkedBy link: String, to key: Int64
    ) throws -> AttributeValue {
        let table = sqlIdentifier(members.table.name)
        var condition = "\(sqlIdentifier(link)) = ?"
        var arguments: [SQLiteValue] = [.integer(key)]
        // As loading the to-many does: an entity sharing its table counts only its own rows.
        if !members.schema.ancestors.isEmpty {
            condition += " AND \"_entity\" IN (\(members.schema.hierarchyNames.map { _ in "?" }.joined(separator: ", ")))"
            arguments += members.schema.hierarchyNames.map(SQLiteValue.text)
        }
        let database = context.store.database
        switch derivation {
        case .count:
            return .integer(try database.scalar("SELECT count(*) FROM \(table) WHERE \(condition)", arguments).int64Value ?? 0)
        case .sum(_, let name):
            guard let attribute = members.schema.attribute(named: name), attribute.isStored else { return .integer(0) }
            let rows = try database.query("SELECT \(sqlIdentifier(name)) FROM \(table) WHERE \(condition)", arguments)
            return try DerivedValues.sum(of: try rows.map { try RowCodec.decode($0[0], for: attribute, entity: members.schema.name) })
        default:
            return .null
        }
    }
}

extension Derivation {
    /// The to-many a `@count` or `@sum` aggregates over; nil for other derivations.
    var aggregatedRelationship: String? {
        switch self {
        case .count(let relationship), .sum(let relationship, _): return relationship
        default: return nil
        }
    }
}
