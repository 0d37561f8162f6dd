#if PostgreSQL
import PersistenceModel
import PersistenceStore
import PersistenceRelational

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

    /// A join table: the relational core's, whose rules (and names) the SQLite store shares.
    package typealias JoinTable = RelationalJoinTable
    /// One relationship's side of a join table.
    package typealias JoinSide = RelationalJoinSide

    package let tables: [String: Table]
    package let entities: [String: Entity]
    /// The join tables and each relationship's side of one.
    package let joins: RelationalJoinTables
    package var joinTables: [JoinTable] { joins.tables }
    package var joinSides: [String: [String: JoinSide]] { joins.sides }

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
        joins = RelationalJoinTables(schemas: schemas, tableNames: Set(tables.keys), sameName: { $0.lowercased() })
    }

    package func joinSide(entity: String, relationship: String) -> JoinSide? { joins.side(entity: entity, relationship: relationship) }

    /// The join tables touching rows of a root table, with the column holding those rows.
    package func joinTables(touching rootTable: String) -> [(table: JoinTable, column: String)] {
        joins.tables(touching: rootTable)
    }
}
#endif
