import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
import PersistenceRelational
/// How a model maps onto SQLite tables: one table per root entity (single-table inheritance),
/// one column per stored attribute and per to-one relationship of every entity in the
/// hierarchy, named after the model's own names so the store reads well in the `sqlite3`
/// shell.
///
/// Every table has `_id INTEGER PRIMARY KEY`; a table whose root entity has sub-entities also
/// has `_entity TEXT`, naming each row's entity. To-many relationships have no column: a
/// to-many whose inverse is a to-one is read through the inverse's column; other to-many
/// relationships (many-to-many, no inverse, ordered) live in join tables named
/// `<Entity>_<relationship>`, described (with their columns) on the relational core's
/// `RelationalJoinTable`, and their indexes on `JoinTableMapping`.
///
/// Sibling sub-entities that declare properties of the same name share one column; its
/// declared type is the first entity's (SQLite columns hold any type).
package struct StoreSchema: Sendable {
    /// Tables by root entity name.
    package let tables: [String: TableMapping]
    /// Per-entity mappings by entity name.
    package let entities: [String: EntityMapping]
    /// The join tables and each relationship's side of one (see `RelationalJoinTable`).
    package let joins: RelationalJoinTables
    /// The frozen model mapped (which the relational core's compiler reads its entities from).
    package let model: ManagedObjectModel

    /// Maps a frozen model.
    package init(model: ManagedObjectModel) {
        self.model = model
        let schemas = model.schemas
        var tables: [String: TableMapping] = [:]
        for root in schemas.values where root.ancestors.isEmpty {
            var columns: [TableMapping.Column] = []
            var seen: Set<String> = []
            for name in root.hierarchyNames {
                guard let schema = schemas[name] else { continue }
                for property in schema.properties where !seen.contains(property.name) {
                    guard let kind = TableMapping.Column.Kind(property, schemas: schemas) else { continue }
                    seen.insert(property.name)
                    columns.append(.init(name: property.name, kind: kind))
                }
            }
            tables[root.name] = TableMapping(
                name: root.name, hasEntityColumn: root.hierarchyNames.count > 1, columns: columns)
        }
        var entities: [String: EntityMapping] = [:]
        for schema in schemas.values {
            guard let table = tables[schema.rootName] else { continue }
            entities[schema.name] = EntityMapping(schema: schema, table: table)
        }
        self.tables = tables
        self.entities = entities
        // SQLite names ignore ASCII case: `book_tags` is the table `Book_tags`.
        joins = RelationalJoinTables(schemas: schemas, tableNames: Set(tables.keys), sameName: ModelValidator.folded)
    }
}

/// One table: the rows of a root entity and its sub-entities.
package struct TableMapping: Sendable {
    /// A column beyond `_id` and `_entity`.
    package struct Column: Sendable {
        /// What a column holds.
        package enum Kind: Sendable {
            /// An attribute's value, encoded by its type.
            case attribute(AttributeDescription)
            /// The `_id` of a to-one relationship's destination, in the destination's table.
            case toOne(RelationshipDescription, destinationTable: String)

            init?(_ property: SchemaProperty, schemas: [String: EntitySchema]) {
                switch property {
                case .attribute(let a):
                    guard a.isStored else { return nil }
                    self = .attribute(a)
                case .relationship(let r):
                    guard !r.isTransient, !r.isToMany,
                        let destination = schemas[r.destinationEntityName]
                    else { return nil }
                    self = .toOne(r, destinationTable: destination.rootName)
                }
            }

            /// The column's declared SQL type.
            package var sqlType: String {
                switch self {
                case .toOne: return "INTEGER"
                case .attribute(let a):
                    switch a.type {
                    case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
                    case .double, .float, .date: return "REAL"
                    case .decimal, .string, .uuid, .uri, .objectID, .undefined: return "TEXT"
                    case .binaryData, .transformable: return "BLOB"
                    }
                }
            }
        }

        /// The column's name: the property's name.
        package let name: String
        /// What it holds.
        package let kind: Kind

        /// The column quoted for SQL, with `COLLATE DECIMAL` when it holds Decimal text, so
        /// that comparisons and indexes order it numerically.
        package var comparableSQL: String {
            if case .attribute(let a) = kind, a.type == .decimal { return sqlIdentifier(name) + " COLLATE DECIMAL" }
            return sqlIdentifier(name)
        }
    }

    /// The table's name: the root entity's name.
    package let name: String
    /// Whether rows carry an `_entity` column (the root has sub-entities).
    package let hasEntityColumn: Bool
    /// The columns beyond `_id` and `_entity`, in table order.
    package let columns: [Column]
    /// Each column's index in `columns`, by name.
    package let columnPositions: [String: Int]
    /// `INSERT INTO "T" ("_id"[, "_entity"], "c1", …) VALUES (?, …)`: every column of the
    /// table, in table order. Built once per table: a table holding a deep hierarchy is
    /// shared by every entity of it.
    package let insertSQL: String

    /// A table of these columns.
    package init(name: String, hasEntityColumn: Bool, columns: [Column]) {
        self.name = name
        self.hasEntityColumn = hasEntityColumn
        self.columns = columns
        var positions: [String: Int] = [:]
        for (i, column) in columns.enumerated() where positions[column.name] == nil { positions[column.name] = i }
        columnPositions = positions
        insertSQL = Self.insertSQL(name: name, hasEntityColumn: hasEntityColumn, columns: columns)
    }

    /// The column with this name, if any.
    package func column(named name: String) -> Column? { columnPositions[name].map { columns[$0] } }
}

/// How one entity's properties map onto its table's columns.
package struct EntityMapping: Sendable {
    /// The resolved entity.
    package let schema: EntitySchema
    /// The entity's table.
    package let table: TableMapping
    /// For each property position of the entity, its column's index in `table.columns`, or
    /// nil when the property has no column (transient, to-many).
    package let columnIndex: [Int?]
    /// The table's INSERT statement (see `TableMapping.insertSQL`), built once.
    package let insertSQL: String
    /// How the entity's rows become slots, built once.
    package let decodePlan: RowDecodePlan

    init(schema: EntitySchema, table: TableMapping) {
        self.schema = schema
        self.table = table
        self.insertSQL = table.insertSQL
        let byName = table.columnPositions
        columnIndex = schema.properties.map { property in
            switch property {
            case .attribute(let a) where a.isStored: return byName[a.name]
            case .relationship(let r) where !r.isToMany && !r.isTransient: return byName[r.name]
            default: return nil
            }
        }
        decodePlan = RowDecodePlan(schema: schema, table: table, columnIndex: columnIndex)
    }
}
