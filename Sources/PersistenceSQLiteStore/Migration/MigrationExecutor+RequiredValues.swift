import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
/// Optional → required without a default value (an attribute, or a to-one relationship): as
/// in Core Data, the migration fails only when an object has no value. The check runs on
/// the rebuilt tables inside the migration's transaction, after dangling references are
/// cleared, so a refusal rolls everything back and the store is as it was.
extension MigrationExecutor {
    /// How many objects a refusal names by key (and identifying value) before "…".
    static let objectsNamed = 5

    /// Refuses, naming how many and which, objects that have no value for an attribute
    /// that becomes required and has no default value, or no destination for a to-one
    /// relationship that becomes required.
    ///
    /// - Throws: `MigrationError` (`.invalidData`) naming entity, attribute, the number of
    ///   objects without a value, and the first few by key and identifying value.
    func checkRequiredValues() throws {
        for step in plan.steps where step.kind == .makeRequired {
            guard let property = step.property, let mapping = destinationSchema.entities[step.entity],
                mapping.table.column(named: property) != nil
            else { continue }
            let missing: String
            if let attribute = mapping.schema.attribute(named: property) {
                guard !attribute.isOptional, attribute.defaultValue == nil else { continue }
                missing = "it becomes required and has no default value, but"
            } else if let relationship = mapping.schema.relationship(named: property) {
                guard !relationship.isOptional, !relationship.isToMany else { continue }
                missing = "the relationship becomes required, but"
            } else {
                continue
            }
            let table = sqlIdentifier(mapping.table.name)
            var conditions = ["\(sqlIdentifier(property)) IS NULL"]
            if mapping.table.hasEntityColumn {
                conditions.append(
                    "\"_entity\" IN (\(mapping.schema.hierarchyNames.map(sqlLiteral).joined(separator: ", ")))")
            }
            let filter = conditions.joined(separator: " AND ")
            let count = try database.scalar("SELECT count(*) FROM \(table) WHERE \(filter)").int64Value ?? 0
            guard count > 0 else { continue }
            let label = identifyingAttribute(of: mapping.schema, besides: property)
            let rows = try database.query(
                "SELECT \"_id\"\(label.map { ", " + sqlIdentifier($0) } ?? "") FROM \(table) WHERE \(filter) "
                    + "ORDER BY \"_id\" LIMIT \(Self.objectsNamed)")
            var named = rows.map { row -> String in
                let key = "\(row[0].int64Value ?? 0)"
                guard let label, row.count > 1, row[1] != .null else { return key }
                return "\(key) (\(label) = \(Self.show(row[1])))"
            }
            if count > Int64(rows.count) { named.append("…") }
            let objects = count == 1 ? "1 \(step.entity) object has" : "\(count) \(step.entity) objects have"
            let isAttribute = mapping.schema.attribute(named: property) != nil
            throw MigrationError(
                .invalidData, entity: step.entity, property: property,
                reason: "\(missing) \(objects) no \(isAttribute ? "value" : "destination") "
                    + "(\(named.joined(separator: ", ")))"
                    + (isAttribute
                        ? "; give it a default value in the new model, or give those objects a value before migrating"
                        : "; give those objects a destination before migrating, or keep it optional"))
        }
    }

    /// An attribute whose value tells a user which object a key is: the first String
    /// attribute of a single-attribute uniqueness constraint, else the first stored,
    /// non-derived String attribute; nil when there is none.
    func identifyingAttribute(of schema: EntitySchema, besides excluded: String) -> String? {
        func isLabel(_ name: String) -> Bool {
            guard name != excluded, let attribute = schema.attribute(named: name) else { return false }
            return attribute.type == .string && attribute.isStored && !attribute.isDerived
                && destinationSchema.tables[schema.rootName]?.column(named: name) != nil
        }
        for keys in schema.entity.uniquenessConstraints where keys.count == 1 && isLabel(keys[0]) {
            return keys[0]
        }
        return schema.properties.lazy.compactMap { property -> String? in
            guard case .attribute(let attribute) = property, isLabel(attribute.name) else { return nil }
            return attribute.name
        }.first
    }

    /// A stored value as a refusal shows it: text quoted (shortened past 40 characters).
    static func show(_ value: SQLiteValue) -> String {
        switch value {
        case .text(let t): return "'\(t.count > 40 ? t.prefix(40) + "…" : t)'"
        case .null: return "nil"
        default: return value.jsonText
        }
    }
}
