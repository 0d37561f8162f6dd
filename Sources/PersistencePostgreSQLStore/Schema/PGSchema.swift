#if PostgreSQL
import PersistenceModel
import PersistenceStore

/// How a model maps onto PostgreSQL tables: the same layout as the SQLite store's, so that
/// one catalogue reads alike in either (one table per root entity, single-table
/// inheritance; `_id bigint` primary key; `_entity` naming each row's entity when the root
/// has sub-entities; `_opt`, the row's version; a column per stored attribute and to-one,
/// named after the model; join tables `<Entity>_<relationship>` for many-to-many, ordered
/// and inverse-less to-many relationships).
///
/// Column types: Integer 16/32/64 `bigint`, Boolean `boolean`, Double and Float `double
/// precision` (NaN and ±infinity kept as themselves), Decimal `numeric` (exact, so `sum` and
/// `avg` are native), Date `double precision` seconds since 1970 (see `PGRowCodec` for why
/// not `timestamptz`), String and URI `text`, UUID `uuid`, Binary and Transformable `bytea`,
/// kept in the row: large values stay in the database (TOAST), since files beside it would
/// be on another machine.
package struct PGSchema: Sendable {
    /// One table of rows: a root entity and its sub-entities.
    package struct Table: Sendable {
        package let name: String
        package let hasEntityColumn: Bool
        /// Stored attributes and to-ones of every entity of the hierarchy, in table order.
        package let columns: [Column]
        package let columnPositions: [String: Int]

        package func column(named name: String) -> Column? { columnPositions[name].map { columns[$0] } }
    }

    /// A column beyond `_id`, `_entity` and `_opt`.
    package struct Column: Sendable {
        package enum Kind: Sendable {
            case attribute(AttributeDescription)
            case toOne(destinationEntity: String, destinationTable: String)
        }
        package let name: String
        package let kind: Kind

        /// The column's PostgreSQL type.
        package var sqlType: String {
            switch kind {
            case .toOne: return "bigint"
            case .attribute(let a):
                switch a.type {
                case .integer16, .integer32, .integer64: return "bigint"
                case .boolean: return "boolean"
                case .double, .float, .date: return "double precision"
                case .decimal: return "numeric"
                case .uuid: return "uuid"
                case .string, .uri, .objectID, .undefined: return "text"
                case .binaryData, .transformable: return "bytea"
                }
            }
        }
    }

    /// One entity's view of its table: its properties' columns.
    package struct Entity: Sendable {
        package let schema: EntitySchema
        package let table: Table
        /// For each property position, its column's index in `table.columns` (nil: none).
        package let columnIndex: [Int?]
    }

    /// A join table (see the SQLite store's `JoinTableMapping` for the rules, which are the same).
    package struct JoinTable: Sendable, Hashable {
        package let name: String
        package let sourceTable: String
        package let destinationTable: String
        package let hasPosition: Bool
        package let hasInversePosition: Bool
    }

    /// One relationship's side of a join table.
    package struct JoinSide: Sendable, Hashable {
        package let table: JoinTable
        package let isSource: Bool
        package let isOrdered: Bool
        package var ownColumn: String { isSource ? "source" : "destination" }
        package var otherColumn: String { isSource ? "destination" : "source" }
        package var positionColumn: String? {
            guard isOrdered else { return nil }
            return isSource ? "position" : "inversePosition"
        }
    }

    package let tables: [String: Table]
    package let entities: [String: Entity]
    package let joinTables: [JoinTable]
    package let joinSides: [String: [String: JoinSide]]

    /// Maps a frozen model.
    package init(model: ManagedObjectModel) {
        let schemas = model.schemas
        var tables: [String: Table] = [:]
        for root in schemas.values where root.ancestors.isEmpty {
            var columns: [Column] = []
            var seen: Set<String> = []
            for name in root.hierarchyNames {
                guard let schema = schemas[name] else { continue }
                for property in schema.properties where !seen.contains(property.name) {
                    switch property {
                    case .attribute(let a) where a.isStored:
                        columns.append(Column(name: a.name, kind: .attribute(a)))
                    case .relationship(let r) where !r.isTransient && !r.isToMany:
                        guard let destination = schemas[r.destinationEntityName] else { continue }
                        columns.append(
                            Column(
                                name: r.name,
                                kind: .toOne(destinationEntity: r.destinationEntityName, destinationTable: destination.rootName)))
                    default: continue
                    }
                    seen.insert(property.name)
                }
            }
            var positions: [String: Int] = [:]
            for (i, column) in columns.enumerated() { positions[column.name] = i }
            tables[root.name] = Table(
                name: root.name, hasEntityColumn: root.hierarchyNames.count > 1, columns: columns, columnPositions: positions)
        }
        var entities: [String: Entity] = [:]
        for schema in schemas.values {
            guard let table = tables[schema.rootName] else { continue }
            let columnIndex: [Int?] = schema.properties.map { property in
                switch property {
                case .attribute(let a) where a.isStored: return table.columnPositions[a.name]
                case .relationship(let r) where !r.isToMany && !r.isTransient: return table.columnPositions[r.name]
                default: return nil
                }
            }
            entities[schema.name] = Entity(schema: schema, table: table, columnIndex: columnIndex)
        }
        self.tables = tables
        self.entities = entities
        (joinSides, joinTables) = Self.joinTables(schemas: schemas, tableNames: Set(tables.keys))
    }

    /// Whether a to-many keeps its links in a join table: stored, and ordered, or without a
    /// stored inverse, or with a to-many inverse.
    static func usesJoinTable(_ r: RelationshipDescription, schemas: [String: EntitySchema]) -> Bool {
        guard r.isToMany, !r.isTransient else { return false }
        if r.isOrdered { return true }
        guard let inverseName = r.inverseName,
            let inverse = schemas[r.destinationEntityName]?.relationship(named: inverseName),
            !inverse.isTransient
        else { return true }
        return inverse.isToMany
    }

    private static func joinTables(
        schemas: [String: EntitySchema], tableNames: Set<String>
    ) -> (sides: [String: [String: JoinSide]], tables: [JoinTable]) {
        func declaring(_ name: String, in schema: EntitySchema) -> EntitySchema {
            for ancestor in schema.ancestors.reversed() {
                if let a = schemas[ancestor], a.entity.relationships.contains(where: { $0.name == name }) { return a }
            }
            return schema
        }
        var tables: [String: JoinTable] = [:]
        var sides: [String: [String: JoinSide]] = [:]
        let lowercasedTableNames = Set(tableNames.map { $0.lowercased() })
        for schema in schemas.values.sorted(by: { $0.name < $1.name }) {
            for case .relationship(let r) in schema.properties where usesJoinTable(r, schemas: schemas) {
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
                let destinationOrdered =
                    ownKey == inverseKey ? false : (isSource ? (inverse?.isOrdered ?? false) : r.isOrdered)
                var name = sourceKey.replacingOccurrences(of: ".", with: "_")
                if lowercasedTableNames.contains(name.lowercased()) { name = "_join_" + name }
                let table =
                    tables[name]
                    ?? JoinTable(
                        name: name, sourceTable: isSource ? schema.rootName : destination.rootName,
                        destinationTable: isSource ? destination.rootName : schema.rootName,
                        hasPosition: sourceOrdered, hasInversePosition: destinationOrdered)
                tables[name] = table
                sides[schema.name, default: [:]][r.name] = JoinSide(table: table, isSource: isSource, isOrdered: r.isOrdered)
            }
        }
        return (sides, tables.values.sorted { $0.name < $1.name })
    }

    package func joinSide(entity: String, relationship: String) -> JoinSide? { joinSides[entity]?[relationship] }

    /// The join tables touching rows of a root table, with the column holding those rows.
    package func joinTables(touching rootTable: String) -> [(table: JoinTable, column: String)] {
        var result: [(JoinTable, String)] = []
        for table in joinTables {
            if table.sourceTable == rootTable { result.append((table, "source")) }
            if table.destinationTable == rootTable { result.append((table, "destination")) }
        }
        return result
    }
}
#endif
