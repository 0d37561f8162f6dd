import PersistenceModel

/// A join table of the stores that lay a model out under its own names (the SQLite store and
/// the PostgreSQL store): the links of a to-many relationship that cannot live in a to-one
/// column.
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
/// - `source`: the key of the object that holds the relationship;
/// - `destination`: the key of the object it links to;
/// - `position`: the destination's index in the source's relationship, when it is ordered;
/// - `inversePosition`: the source's index in the destination's inverse relationship, when
///   the inverse is an ordered to-many.
///
/// A relationship that is its own inverse (`friends`) keeps one row per direction in its
/// table. Each store writes the table's DDL and indexes in its own dialect. (Core Data's
/// layout names and shapes its join tables its own way: `CoreDataLayout`.)
package struct RelationalJoinTable: Sendable, Hashable {
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
}

/// One relationship's view of a join table: which column holds its own objects and which
/// its destinations.
package struct RelationalJoinSide: Sendable, Hashable {
    /// The join table.
    package let table: RelationalJoinTable
    /// Whether the relationship is the table's `source` side (else its `destination` side).
    package let isSource: Bool
    /// Whether the relationship keeps its destinations in order.
    package let isOrdered: Bool

    /// The column holding the key of the object that owns the relationship.
    package var ownColumn: String { isSource ? "source" : "destination" }
    /// The column holding the key of a destination.
    package var otherColumn: String { isSource ? "destination" : "source" }
    /// The column holding this side's positions, when it is ordered.
    package var positionColumn: String? {
        guard isOrdered else { return nil }
        return isSource ? "position" : "inversePosition"
    }
}

/// Every join table of a model laid out under its own names, and each relationship's side
/// of one (see `RelationalJoinTable` for the rules).
package struct RelationalJoinTables: Sendable {
    /// The tables, by name order.
    package let tables: [RelationalJoinTable]
    /// The join side of each join-table relationship, by entity and relationship name
    /// (sub-entities list the relationships they inherit).
    package let sides: [String: [String: RelationalJoinSide]]

    /// The join tables of `schemas`, whose root tables are `tableNames`; `sameName` folds a
    /// name as the database compares table names (SQLite ignores ASCII case), so that a join
    /// table never takes an entity's table's name.
    package init(
        schemas: [String: EntitySchema], tableNames: Set<String>, sameName: (String) -> String = { $0 }
    ) {
        /// The entity that declares `name` in `schema`'s chain (the topmost one).
        func declaring(_ name: String, in schema: EntitySchema) -> EntitySchema {
            for ancestor in schema.ancestors.reversed() {
                if let a = schemas[ancestor], a.entity.relationships.contains(where: { $0.name == name }) { return a }
            }
            return schema
        }
        var tables: [String: RelationalJoinTable] = [:]
        var sides: [String: [String: RelationalJoinSide]] = [:]
        let foldedTableNames = Set(tableNames.map(sameName))
        for schema in schemas.values.sorted(by: { $0.name < $1.name }) {
            for case .relationship(let r) in schema.properties where Self.usesJoinTable(r, schemas: schemas) {
                guard let destination = schemas[r.destinationEntityName] else { continue }
                let ownKey = "\(declaring(r.name, in: schema).name).\(r.name)"
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
                let sourceOrdered = isSource ? r.isOrdered : (inverse?.isOrdered ?? false)
                let destinationOrdered = ownKey == inverseKey ? false : (isSource ? (inverse?.isOrdered ?? false) : r.isOrdered)
                var name = sourceKey.replacingOccurrences(of: ".", with: "_")
                if foldedTableNames.contains(sameName(name)) { name = "_join_" + name }
                let table =
                    tables[name]
                    ?? RelationalJoinTable(
                        name: name, sourceTable: isSource ? schema.rootName : destination.rootName,
                        destinationTable: isSource ? destination.rootName : schema.rootName,
                        hasPosition: sourceOrdered, hasInversePosition: destinationOrdered)
                tables[name] = table
                sides[schema.name, default: [:]][r.name] = RelationalJoinSide(
                    table: table, isSource: isSource, isOrdered: r.isOrdered)
            }
        }
        self.tables = tables.values.sorted { $0.name < $1.name }
        self.sides = sides
    }

    /// Whether a relationship's links live in a join table: a stored to-many that is
    /// ordered, or has no stored inverse, or a to-many inverse.
    package static func usesJoinTable(_ r: RelationshipDescription, schemas: [String: EntitySchema]) -> Bool {
        guard r.isToMany, !r.isTransient else { return false }
        if r.isOrdered { return true }
        guard let inverseName = r.inverseName,
            let inverse = schemas[r.destinationEntityName]?.relationship(named: inverseName),
            !inverse.isTransient
        else { return true }
        return inverse.isToMany
    }

    /// The join side of an entity's relationship, or nil when it does not use a join table.
    package func side(entity: String, relationship: String) -> RelationalJoinSide? {
        sides[entity]?[relationship]
    }

    /// The join tables touching rows of a root table, with the column holding those rows. A
    /// table linking a root to itself is listed twice.
    package func tables(touching rootTable: String) -> [(table: RelationalJoinTable, column: String)] {
        var result: [(RelationalJoinTable, String)] = []
        for table in tables {
            if table.sourceTable == rootTable { result.append((table, "source")) }
            if table.destinationTable == rootTable { result.append((table, "destination")) }
        }
        return result
    }
}
