import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteFiles

/// How Core Data lays a model out in an SQLite store, worked out from the model and checked
/// against the store's own tables (`Z_PRIMARYKEY` and `PRAGMA table_info`):
///
/// - one table `Z<ROOT>` per root entity (upper case), whose rows of every entity in the
///   hierarchy are told apart by `Z_ENT`, the entity's number in `Z_PRIMARYKEY`; every
///   table has `Z_PK` (the key), `Z_ENT` and `Z_OPT` (the row's version);
/// - a column `Z<NAME>` per stored attribute and per to-one relationship (the destination's
///   `Z_PK`), and beside a to-one whose destination has sub-entities, `Z<n>_<NAME>` holding
///   the destination's `Z_ENT`;
/// - an ordered to-many whose inverse is a to-one keeps its order in the destination's
///   column `Z_FOK_<INVERSE>`;
/// - a many-to-many in a join table `Z_<n><NAME>` named after the side of the entity with
///   the lower number, with a column `Z_<n><INVERSE>` per side holding that side's `Z_PK`
///   (`n` its entity's number), and for an ordered side `Z_FOK_` before the column its order
///   is kept for;
/// - a to-many without an inverse, in a store that keeps it so, in a column `Z<n><NAME>` of
///   the destination's table holding the source row's `Z_PK` (else in a join table).
struct CoreDataLayout {
    /// A column of a row table, beyond `Z_PK`, `Z_ENT` and `Z_OPT`.
    struct Column {
        enum Kind {
            case attribute(AttributeDescription)
            /// A to-one: its key column, and the destination-entity column when there is one.
            case toOne(RelationshipDescription, entityColumn: String?)
        }
        /// The column's name (`ZMAKER`).
        let name: String
        let kind: Kind
    }

    /// One table: the rows of a root entity and its sub-entities.
    struct Table {
        /// `ZCAR`.
        let name: String
        /// The root entity's name.
        let rootName: String
        /// The columns read and written, in a fixed order.
        var columns: [Column] = []
        /// Each property's column index, by property name: the column of the first entity
        /// (by number) that has a property of that name. Use `index(of:in:)` where the
        /// entity is known: two entities of the table may each declare a property of one name.
        var columnIndex: [String: Int] = [:]
        /// Each entity's property column indexes, by entity and property name.
        var entityColumnIndex: [String: [String: Int]] = [:]

        /// The index of the column of `entity`'s `property` in `columns`.
        func index(of property: String, in entity: String) -> Int? {
            entityColumnIndex[entity]?[property] ?? columnIndex[property]
        }

        /// The name of the column of `entity`'s `property` (`Z` and the name in upper case,
        /// unless another entity of the table took it first).
        func columnName(of property: String, in entity: String) -> String {
            index(of: property, in: entity).map { columns[$0].name } ?? CoreDataLayout.columnName(property)
        }
        /// The ordering columns of to-manys ordered through their inverse to-one: by the
        /// to-one's name, `Z_FOK_<NAME>`.
        var orderColumns: [String: String] = [:]
    }

    /// One side of a many-to-many's join table.
    struct JoinSide {
        let table: String
        /// The column holding this side's key.
        let ownColumn: String
        /// The column holding the other side's key.
        let otherColumn: String
        /// The column keeping the order of the other side's rows, for an ordered side.
        let orderColumn: String?
    }

    /// One entity: its number and table.
    struct Entity {
        let schema: EntitySchema
        /// Its `Z_ENT`.
        let number: Int64
        /// Its root's table name.
        let tableName: String
        /// The numbers of the entity and its sub-entities.
        let hierarchyNumbers: [Int64]
    }

    /// Tables by root entity name.
    private(set) var tables: [String: Table] = [:]
    /// Entities by name.
    private(set) var entities: [String: Entity] = [:]
    /// Entity names by number.
    private(set) var entityNames: [Int64: String] = [:]
    /// Join sides by entity and relationship name.
    private(set) var joinSides: [String: [String: JoinSide]] = [:]

    /// A to-many without an inverse kept in a column of its destination's table (see
    /// `layJoinTables`): each destination row holds the key of the row it belongs to.
    struct InverseColumn {
        /// The destination's table.
        let table: String
        /// `Z<n><NAME>`.
        let column: String
        /// The numbers of the destination entity and its sub-entities.
        let destinationNumbers: [Int64]
    }

    /// The to-manys kept in a column of their destination, by entity and relationship name.
    private(set) var inverseColumns: [String: [String: InverseColumn]] = [:]

    /// The column keeping `entity`'s to-many `relationship`, for one without an inverse that
    /// the store keeps that way.
    func inverseColumn(entity: String, relationship: String) -> InverseColumn? { inverseColumns[entity]?[relationship] }

    /// Core Data's name for a property's column or an entity's table: `Z` and the name in
    /// upper case.
    static func columnName(_ name: String) -> String { "Z" + name.uppercased() }

    /// `name`'s column name, `Z` and the name in upper case, with the first number that makes
    /// it unused in the table (`taken`) when it is used already; the name is then taken.
    static func freeColumnName(_ name: String, taken: inout Set<String>) -> String {
        let base = columnName(name)
        var candidate = base
        var number = 0
        while taken.contains(candidate) {
            number += 1
            candidate = base + String(number)
        }
        taken.insert(candidate)
        return candidate
    }

    /// The SQL types Core Data declares for each attribute type.
    static func declaredType(_ type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float: return "FLOAT"
        case .decimal: return "DECIMAL"
        case .date: return "TIMESTAMP"
        case .string: return "VARCHAR"
        case .binaryData, .uuid, .transformable: return "BLOB"
        case .uri, .objectID, .undefined: return nil
        }
    }

    /// The entity numbers Core Data gives a model: roots in name order, each followed by its
    /// sub-entities depth first, in name order, from 1 (as in every fixture's `Z_PRIMARYKEY`).
    static func entityNumbers(_ model: ManagedObjectModel) -> [(name: String, number: Int64, superNumber: Int64)] {
        let schemas = model.schemas
        var children: [String: [String]] = [:]
        for schema in schemas.values { if let parent = schema.ancestors.first { children[parent, default: []].append(schema.name) } }
        var result: [(name: String, number: Int64, superNumber: Int64)] = []
        func visit(_ name: String, superNumber: Int64) {
            let number = Int64(result.count + 1)
            result.append((name, number, superNumber))
            for child in (children[name] ?? []).sorted() { visit(child, superNumber: number) }
        }
        for root in schemas.values.filter({ $0.ancestors.isEmpty }).map(\.name).sorted() { visit(root, superNumber: 0) }
        return result
    }

    /// The layout of `model` with the entity numbers `numbers` (by name), and the columns the
    /// store's tables have (by table name; nil to lay out a new store).
    ///
    /// - Throws: `StoreError.incompatibleModel` naming the first difference between the model
    ///   and the store's tables.
    init(model: ManagedObjectModel, numbers: [String: Int64], storeColumns: [String: [String: String]]?, path: String) throws {
        func mismatch(_ difference: String) -> StoreError {
            StoreError.incompatibleModel(path: path, differences: [difference])
        }
        let schemas = model.schemas
        for schema in schemas.values.sorted(by: { $0.name < $1.name }) {
            guard let number = numbers[schema.name] else {
                throw mismatch("the store has no entity \(schema.name)")
            }
            entityNames[number] = schema.name
            entities[schema.name] = Entity(
                schema: schema, number: number, tableName: Self.columnName(schema.rootName),
                hierarchyNumbers: schema.hierarchyNames.compactMap { numbers[$0] })
        }
        for root in schemas.values.filter({ $0.ancestors.isEmpty }).sorted(by: { $0.name < $1.name }) {
            var table = Table(name: Self.columnName(root.name), rootName: root.name)
            let existing = storeColumns.map { $0[table.name] }
            if let existing, existing == nil { throw mismatch("the store has no table \(table.name) for \(root.name)") }
            // Core Data gives each property its column in entity-number order; a property
            // declared again in another entity of the table (two sub-entities' `title`s) gets
            // the name with a number: ZTITLE, ZTITLE1, ZTITLE2 (as in the Apple Notes stores of
            // the corpus, where ICAttachment's title is ZTITLE, ICNote's ZTITLE1, ICFolder's
            // ZTITLE2). An inherited property keeps its ancestor's column.
            var taken: Set<String> = []
            let hierarchy = root.hierarchyNames.sorted { (numbers[$0] ?? 0, $0) < (numbers[$1] ?? 0, $1) }
            for name in hierarchy {
                guard let schema = schemas[name] else { continue }
                let parent = schema.ancestors.first.flatMap { schemas[$0] }
                var own: [String: Int] = [:]
                for property in schema.properties {
                    if let parent, parent.propertyIndex[property.name] != nil {
                        if let inherited = table.entityColumnIndex[parent.name]?[property.name] { own[property.name] = inherited }
                        continue
                    }
                    let column: Column
                    switch property {
                    case .attribute(let attribute):
                        guard attribute.isStored else { continue }
                        column = Column(name: Self.freeColumnName(attribute.name, taken: &taken), kind: .attribute(attribute))
                        if let existing = existing ?? nil {
                            guard let declared = existing[column.name] else {
                                throw mismatch("\(table.name) has no column \(column.name) for \(schema.name).\(attribute.name)")
                            }
                            if let expected = Self.declaredType(attribute.type), declared.uppercased() != expected {
                                throw mismatch(
                                    "\(table.name).\(column.name) is \(declared) in the store, but \(schema.name).\(attribute.name) "
                                        + "is \(attribute.type.rawValue) in the model")
                            }
                        }
                    case .relationship(let relationship):
                        guard !relationship.isTransient else { continue }
                        guard !relationship.isToMany else { continue }
                        let key = Self.freeColumnName(relationship.name, taken: &taken)
                        var entityColumn: String?
                        let destinationHasSubentities = (schemas[relationship.destinationEntityName]?.hierarchyNames.count ?? 1) > 1
                        if let existing = existing ?? nil {
                            guard existing[key] != nil else {
                                throw mismatch("\(table.name) has no column \(key) for \(schema.name).\(relationship.name)")
                            }
                            let suffix = "_" + key.dropFirst()
                            entityColumn = existing.keys.sorted().first { name in
                                name.hasPrefix("Z") && name.hasSuffix(suffix)
                                    && name.dropFirst().dropLast(suffix.count).allSatisfy(\.isNumber)
                                    && name.count > suffix.count + 1
                            }
                        } else if destinationHasSubentities, let destination = numbers[relationship.destinationEntityName] {
                            entityColumn = "Z\(destination)_\(key.dropFirst())"
                        }
                        column = Column(name: key, kind: .toOne(relationship, entityColumn: entityColumn))
                        if let inverseName = relationship.inverseName,
                            let inverse = schemas[relationship.destinationEntityName]?.relationship(named: inverseName),
                            inverse.isToMany, inverse.isOrdered, table.orderColumns[relationship.name] == nil
                        {
                            table.orderColumns[relationship.name] = "Z_FOK_" + key.dropFirst()
                        }
                    }
                    own[property.name] = table.columns.count
                    if table.columnIndex[property.name] == nil { table.columnIndex[property.name] = table.columns.count }
                    table.columns.append(column)
                }
                table.entityColumnIndex[name] = own
            }
            if let existing = existing ?? nil {
                for order in table.orderColumns.values.sorted() where existing[order] == nil {
                    throw mismatch("\(table.name) has no ordering column \(order)")
                }
            }
            tables[root.name] = table
        }
        try layJoinTables(schemas: schemas, storeColumns: storeColumns, mismatch: mismatch)
    }

    /// Finds each many-to-many's join table (see the type's description).
    private mutating func layJoinTables(
        schemas: [String: EntitySchema], storeColumns: [String: [String: String]]?, mismatch: (String) -> StoreError
    ) throws {
        for schema in schemas.values.sorted(by: { $0.name < $1.name }) {
            for case .relationship(let relationship) in schema.properties
            where relationship.isToMany && !relationship.isTransient && schema.entity.relationship(named: relationship.name) != nil {
                guard let own = entities[schema.name], let destination = entities[relationship.destinationEntityName] else { continue }
                let inverse = relationship.inverseName.flatMap { destination.schema.relationship(named: $0) }
                if let inverse, !inverse.isToMany { continue }
                // A to-many without an inverse that Core Data keeps in a column of the
                // destination's table, `Z`, this entity's number and the relationship's name
                // (`ZCDCARTITEMMODIFIER.Z2MODIFIERS` for CDCartItem.modifiers, and
                // `Z3ITEMS` in a store SwiftData wrote, both in CartKit's test stores).
                let destinationTable = Self.columnName(destination.schema.rootName)
                let inverseColumn = "Z\(own.number)\(relationship.name.uppercased())"
                if inverse == nil, let storeColumns, storeColumns[destinationTable]?[inverseColumn] != nil,
                    storeColumns["Z_\(own.number)\(relationship.name.uppercased())"] == nil
                {
                    for name in schema.hierarchyNames {
                        inverseColumns[name, default: [:]][relationship.name] = InverseColumn(
                            table: destinationTable, column: inverseColumn, destinationNumbers: destination.hierarchyNumbers)
                    }
                    continue
                }
                // The side of the lower-numbered entity names the table.
                let inverseName = inverse?.name ?? relationship.name
                let ownColumn = "Z_\(own.number)\(inverseName.uppercased())"
                let otherColumn = "Z_\(destination.number)\(relationship.name.uppercased())"
                let table =
                    own.number <= destination.number || inverse == nil
                    ? "Z_\(own.number)\(relationship.name.uppercased())"
                    : "Z_\(destination.number)\(inverseName.uppercased())"
                let orderColumn = relationship.isOrdered ? "Z_FOK_" + otherColumn.dropFirst(2) : nil
                if let storeColumns {
                    guard let columns = storeColumns[table] else {
                        throw mismatch("the store has no join table \(table) for \(schema.name).\(relationship.name)")
                    }
                    for column in [ownColumn, otherColumn] + (orderColumn.map { [$0] } ?? []) where columns[column] == nil {
                        throw mismatch("\(table) has no column \(column) for \(schema.name).\(relationship.name)")
                    }
                }
                joinSides[schema.name, default: [:]][relationship.name] = JoinSide(
                    table: table, ownColumn: ownColumn, otherColumn: otherColumn, orderColumn: orderColumn)
                for sub in schema.hierarchyNames where sub != schema.name {
                    joinSides[sub, default: [:]][relationship.name] = joinSides[schema.name]?[relationship.name]
                }
            }
        }
    }

    /// The slots of `schema`'s properties in Core Data's history bitmap (`ACHANGE.ZCOLUMNS`,
    /// see `CoreDataHistoryColumns`): its to-ones with a `Z<n>_` entity column have two.
    func historySlots(of schema: EntitySchema) -> [String] {
        var withEntityColumn: Set<String> = []
        if let table = tables[schema.rootName] {
            for case .relationship(let relationship) in schema.properties where !relationship.isToMany {
                guard let index = table.index(of: relationship.name, in: schema.name),
                    case .toOne(_, let entityColumn) = table.columns[index].kind, entityColumn != nil
                else { continue }
                withEntityColumn.insert(relationship.name)
            }
        }
        return CoreDataHistoryColumns.propertyOrder(of: schema, withEntityColumn: withEntityColumn)
    }

    /// The join side of `entity`'s `relationship`, for a many-to-many.
    func joinSide(entity: String, relationship: String) -> JoinSide? { joinSides[entity]?[relationship] }

    /// The table of `rootName`.
    func table(root rootName: String) -> Table? { tables[rootName] }
}
