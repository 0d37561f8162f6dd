import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
/// A join table: the links of a to-many relationship that cannot live in a to-one column.
///
/// A to-many relationship uses a join table when it is stored (not transient) and any of
/// these holds: it has no inverse (or its inverse is transient), its inverse is also
/// to-many (many-to-many), or it is **ordered**. An ordered to-many with a to-one inverse
/// uses a join table too, for its positions, while the inverse keeps its to-one column:
/// both are written from the same in-memory state, so they always agree, and a
/// destination's row stays free of columns that only one relationship needs.
///
/// The table is named `<Entity>_<relationship>` after the entity that declares the
/// relationship (`Book_tags`), or `_join_<Entity>_<relationship>` if an entity already has
/// that name. A many-to-many shares one table between its two sides: it is named after the
/// side whose `Entity.relationship` sorts first, which is the `source` side. Columns:
///
/// - `source`: the `_id` of the object that holds the relationship;
/// - `destination`: the `_id` of the object it links to;
/// - `position`: the destination's index in the source's relationship, when it is ordered;
/// - `inversePosition`: the source's index in the destination's inverse relationship, when
///   the inverse is an ordered to-many.
///
/// A UNIQUE index on `(source, destination)` and an index on `(destination, source)` make
/// both directions an index search. A relationship that is its own inverse (`friends`)
/// keeps one row per direction in its table.
package struct JoinTableMapping: Sendable, Hashable {
    /// The table's name.
    package let name: String
    /// The root entity (table) of the `source` objects.
    package let sourceTable: String
    /// The root entity (table) of the `destination` objects.
    package let destinationTable: String
    /// Whether the table has a `position` column (the source side is ordered).
    package let hasPosition: Bool
    /// Whether the table has an `inversePosition` column (the destination side is ordered).
    package let hasInversePosition: Bool

    /// The statements that create the table and its indexes, with `IF NOT EXISTS` so that
    /// they also complete a store created before the table was needed.
    package var createStatements: [String] {
        let t = sqlIdentifier(name)
        var columns = ["\"source\" INTEGER NOT NULL", "\"destination\" INTEGER NOT NULL"]
        if hasPosition { columns.append("\"position\" INTEGER") }
        if hasInversePosition { columns.append("\"inversePosition\" INTEGER") }
        return [
            "CREATE TABLE IF NOT EXISTS \(t) (\(columns.joined(separator: ", ")))",
            "CREATE UNIQUE INDEX IF NOT EXISTS \(sqlIdentifier(name + "_source_destination")) ON \(t) (\"source\", \"destination\")",
            "CREATE INDEX IF NOT EXISTS \(sqlIdentifier(name + "_destination_source")) ON \(t) (\"destination\", \"source\")",
        ]
    }
}

/// One relationship's view of a join table: which column holds its own objects and which
/// its destinations.
package struct JoinSide: Sendable, Hashable {
    /// The join table.
    package let table: JoinTableMapping
    /// Whether the relationship is the table's `source` side (else its `destination` side).
    package let isSource: Bool
    /// Whether the relationship keeps its destinations in order.
    package let isOrdered: Bool

    /// The column holding the `_id` of the object that owns the relationship.
    package var ownColumn: String { isSource ? "source" : "destination" }
    /// The column holding the `_id` of a destination.
    package var otherColumn: String { isSource ? "destination" : "source" }
    /// The column holding this side's positions, when it is ordered.
    package var positionColumn: String? {
        guard isOrdered else { return nil }
        return isSource ? "position" : "inversePosition"
    }
    /// An ORDER BY over the join table aliased `alias`: positions (unpositioned rows last),
    /// then insertion order.
    package func ordering(alias: String) -> String {
        let a = sqlIdentifier(alias)
        if let positionColumn {
            let p = "\(a).\(sqlIdentifier(positionColumn))"
            return "\(p) IS NULL, \(p), \(a).rowid"
        }
        return "\(a).rowid"
    }
}

extension StoreSchema {
    /// Whether a relationship's links live in a join table (see `JoinTableMapping`).
    package static func usesJoinTable(_ r: RelationshipDescription, schemas: [String: EntitySchema]) -> Bool {
        guard r.isToMany, !r.isTransient else { return false }
        if r.isOrdered { return true }
        guard let inverseName = r.inverseName,
            let inverse = schemas[r.destinationEntityName]?.relationship(named: inverseName),
            !inverse.isTransient
        else { return true }
        return inverse.isToMany
    }

    /// The join sides of every entity's join-table relationships, by entity name and then
    /// relationship name (sub-entities list the relationships they inherit), and the tables.
    static func joinTables(
        schemas: [String: EntitySchema], tableNames: Set<String>
    ) -> (sides: [String: [String: JoinSide]], tables: [JoinTableMapping]) {
        /// The entity that declares `name` in `schema`'s chain (the topmost one).
        func declaring(_ name: String, in schema: EntitySchema) -> EntitySchema {
            for ancestor in schema.ancestors.reversed() {
                if let a = schemas[ancestor], a.entity.relationships.contains(where: { $0.name == name }) { return a }
            }
            return schema
        }
        var tables: [String: JoinTableMapping] = [:]
        var sides: [String: [String: JoinSide]] = [:]
        let foldedTableNames = Set(tableNames.map(ModelValidator.folded))
        for schema in schemas.values.sorted(by: { $0.name < $1.name }) {
            for case .relationship(let r) in schema.properties where usesJoinTable(r, schemas: schemas) {
                guard let destination = schemas[r.destinationEntityName] else { continue }
                let owner = declaring(r.name, in: schema)
                let ownKey = "\(owner.name).\(r.name)"
                var inverse: RelationshipDescription?
                var inverseKey = ownKey
                if let inverseName = r.inverseName, let i = destination.relationship(named: inverseName),
                    i.isToMany, !i.isTransient
                {
                    inverse = i
                    inverseKey = "\(declaring(i.name, in: destination).name).\(i.name)"
                }
                let isSource = inverse == nil || ownKey <= inverseKey
                let sourceKey = isSource ? ownKey : inverseKey
                let sourceRoot = isSource ? schema.rootName : destination.rootName
                let destinationRoot = isSource ? destination.rootName : schema.rootName
                let sourceOrdered = isSource ? r.isOrdered : (inverse?.isOrdered ?? false)
                let destinationOrdered = ownKey == inverseKey ? false : (isSource ? (inverse?.isOrdered ?? false) : r.isOrdered)
                var name = sourceKey.replacingOccurrences(of: ".", with: "_")
                // SQLite names ignore ASCII case: `book_tags` is the table `Book_tags`.
                if foldedTableNames.contains(ModelValidator.folded(name)) { name = "_join_" + name }
                let table = tables[name] ?? JoinTableMapping(
                    name: name, sourceTable: sourceRoot, destinationTable: destinationRoot,
                    hasPosition: sourceOrdered, hasInversePosition: destinationOrdered)
                tables[name] = table
                sides[schema.name, default: [:]][r.name] = JoinSide(table: table, isSource: isSource, isOrdered: r.isOrdered)
            }
        }
        return (sides, tables.values.sorted { $0.name < $1.name })
    }

    /// The join side of an entity's relationship, or nil when it does not use a join table.
    package func joinSide(entity: String, relationship: String) -> JoinSide? {
        joinSides[entity]?[relationship]
    }

    /// The join tables touching rows of a root table, with whether the rows are their
    /// `source` (else `destination`) objects. A table linking a root to itself is listed twice.
    package func joinTables(touching rootTable: String) -> [(table: JoinTableMapping, column: String)] {
        var result: [(JoinTableMapping, String)] = []
        for table in joinTables {
            if table.sourceTable == rootTable { result.append((table, "source")) }
            if table.destinationTable == rootTable { result.append((table, "destination")) }
        }
        return result
    }
}
