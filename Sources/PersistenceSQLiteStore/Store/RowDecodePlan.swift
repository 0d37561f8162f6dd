import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore

/// How a row of one entity becomes an object's slots, worked out once per entity when the
/// store schema is built: for each property position, which column to read and how.
///
/// Reading a row then walks a flat array of small steps instead of switching over each
/// property's `SchemaProperty` (whose `AttributeDescription` payload costs a dozen
/// retains and releases per copy), and produces the object's `[StoredSlot]` directly, so filling
/// an object is one array assignment. The common attribute types are decoded inline; any
/// other type (binary data may be an external file's reference), and any value stored in an
/// unexpected form, goes through `SQLiteStore.decodeColumn` and `RowCodec.decode`, so the
/// result is exactly what they give.
package struct RowDecodePlan: Sendable {
    /// How one property position is filled.
    enum Step: Sendable {
        /// A stored attribute: the column's offset among the table's columns, and how to read it.
        case attribute(column: Int32, reader: Reader)
        /// A transformable attribute whose transformer was looked up for this read (see
        /// `resolved(for:)`): its column and the transformer.
        case transformed(column: Int32, transformer: any ValueTransforming, transformerName: String)
        /// A to-one relationship stored as the destination's `_id`; the destination's entity
        /// and root entity name its object ID.
        case toOne(column: Int32, entityName: String, rootName: String)
        /// A to-one relationship, as `toOne`, with the destination IDs' scope made for this
        /// read (see `resolved(for:)`).
        case toOneInScope(column: Int32, scope: ObjectID.Scope)
        /// A to-many relationship: a fault until first used.
        case toMany
        /// A property without a column: a transient attribute's default (`.null` for none).
        case constant(AttributeValue)
        /// A to-one relationship without a column: no destination.
        case noDestination
    }

    /// How a stored attribute's column is read.
    enum Reader: Sendable {
        case integer, boolean, double, decimal, date, string, uuid
        /// A transformable attribute that names a value transformer: resolved once per read
        /// by `resolved(for:)`, since the registry takes a lock per lookup.
        case transformable(transformerName: String)
        /// Anything else (binary, URI, transformable without a transformer): through
        /// `RowCodec.decode`.
        case general
    }

    /// A step per property position of the entity.
    private(set) var steps: [Step]

    /// The plan for `schema`'s rows in `table`; `columnIndex` is `EntityMapping.columnIndex`.
    init(schema: EntitySchema, table: TableMapping, columnIndex: [Int?]) {
        var steps: [Step] = []
        steps.reserveCapacity(schema.properties.count)
        for (position, property) in schema.properties.enumerated() {
            let column = columnIndex[position]
            switch property {
            case .attribute(let attribute):
                if let column {
                    steps.append(.attribute(column: Int32(column), reader: Reader(attribute)))
                } else {
                    // A transient is not stored: it starts from its default, as on insert.
                    steps.append(.constant(attribute.isTransient ? (attribute.defaultValue ?? .null) : .null))
                }
            case .relationship(let relationship):
                if relationship.isToMany {
                    steps.append(.toMany)
                } else if let column, case .toOne(_, let destinationTable) = table.columns[column].kind {
                    steps.append(
                        .toOne(
                            column: Int32(column), entityName: relationship.destinationEntityName,
                            rootName: destinationTable))
                } else {
                    steps.append(.noDestination)
                }
            }
        }
        self.steps = steps
    }

    /// The plan for one read of many rows from `store`: each transformable attribute's
    /// transformer looked up and each to-one's ID scope made now, not per row. Looking
    /// transformers up per row took the registry's lock 100,000 times to fetch 100,000 books.
    /// An attribute whose transformer is not registered is read through `RowCodec.decode`,
    /// which passes its bytes through (see `RowCodec`).
    func resolved(for store: SQLiteStore) -> RowDecodePlan {
        var resolved = self
        for (position, step) in steps.enumerated() {
            switch step {
            case .attribute(let column, .transformable(let name)):
                resolved.steps[position] =
                    ValueTransformers.transformer(forName: name).map {
                        .transformed(column: column, transformer: $0, transformerName: name)
                    } ?? .attribute(column: column, reader: .general)
            case .toOne(let column, let destination, let destinationRoot):
                resolved.steps[position] = .toOneInScope(
                    column: column, scope: store.idScope(entityName: destination, rootName: destinationRoot))
            default:
                continue
            }
        }
        return resolved
    }

    /// The slots of the statement's current row (of `mapping`'s entity, with this primary
    /// key), whose table columns start at `firstColumn`. Values not decoded inline go
    /// through `store.decodeColumn`, which also reads external data files.
    ///
    /// - Throws: `StoreError.corruptValue` when a stored value cannot be read as its
    ///   attribute's type; `StoreError.unreadableExternalData` for a missing external file.
    func slots(
        of statement: Statement, firstColumn: Int32, mapping: EntityMapping, primaryKey: Int64, store: SQLiteStore
    ) throws -> [StoredSlot] {
        let schema = mapping.schema
        // A value not decoded inline: through `RowCodec.decode`, or an external data file.
        func decoded(_ raw: SQLiteValue, at position: Int) throws -> StoredSlot {
            guard case .attribute(let attribute) = schema.properties[position] else { return .value(.null) }
            return .value(try store.decodeColumn(raw, for: attribute, mapping: mapping, primaryKey: primaryKey))
        }
        // A to-one's destination ID from its column, in `scope`.
        func destination(at column: Int32, in scope: @autoclosure () -> ObjectID.Scope) -> StoredSlot {
            guard case .integer(let key) = statement.value(at: firstColumn + column) else { return .toOneFault(nil) }
            return .toOneFault(ObjectID(scope: scope(), key: .permanent(key)))
        }
        var slots: [StoredSlot] = []
        slots.reserveCapacity(steps.count)
        for position in steps.indices {
            switch steps[position] {
            case .attribute(let column, let reader):
                if let slot = reader.slot(at: firstColumn + column, of: statement) {
                    slots.append(slot)
                    continue
                }
                slots.append(try decoded(statement.value(at: firstColumn + column), at: position))
            case .transformed(let column, let transformer, let transformerName):
                let raw = statement.value(at: firstColumn + column)
                guard case .blob(let data) = raw else {
                    // NULL, or an external data file's reference.
                    slots.append(try decoded(raw, at: position))
                    continue
                }
                let value = try TransformableCodec.reverseTransform(
                    data, with: transformer, transformerName: transformerName,
                    attribute: schema.propertyNames[position], entity: schema.name)
                slots.append(.value(.transformable(value)))
            case .toOne(let column, let entityName, let rootName):
                slots.append(destination(at: column, in: store.idScope(entityName: entityName, rootName: rootName)))
            case .toOneInScope(let column, let scope):
                slots.append(destination(at: column, in: scope))
            case .toMany:
                slots.append(.toManyFault)
            case .constant(let value):
                slots.append(.value(value))
            case .noDestination:
                slots.append(.toOneFault(nil))
            }
        }
        return slots
    }
}

extension RowDecodePlan.Reader {
    init(_ attribute: AttributeDescription) {
        switch attribute.type {
        case .integer16, .integer32, .integer64: self = .integer
        case .boolean: self = .boolean
        case .double, .float: self = .double
        case .decimal: self = .decimal
        case .date: self = .date
        case .string: self = .string
        case .uuid: self = .uuid
        case .transformable:
            self = attribute.valueTransformerName.map { .transformable(transformerName: $0) } ?? .general
        default: self = .general
        }
    }

    /// The slot of the statement's column at `index`, read straight from SQLite when the
    /// column holds the storage class `RowCodec.encode` writes for the type (or NULL): no
    /// `SQLiteValue` in between, and UUIDs and decimals parsed from SQLite's buffer without a
    /// `String`. Nil for anything else, which `RowCodec.decode` then reads or reports.
    func slot(at index: Int32, of statement: Statement) -> StoredSlot? {
        switch (self, statement.storageClass(at: index)) {
        case (_, .null): return .value(.null)
        case (.integer, .integer): return .value(.integer(statement.int64(at: index)))
        case (.boolean, .integer): return .value(.bool(statement.int64(at: index) != 0))
        case (.double, .real): return .value(.double(statement.double(at: index)))
        case (.date, .real): return .value(.date(Date(timeIntervalSince1970: statement.double(at: index))))
        case (.string, .text): return .value(.string(statement.string(at: index)))
        case (.uuid, .text): return statement.withText(at: index, UUIDText.parseCanonical).map { .value(.uuid($0)) }
        case (.decimal, .text): return statement.withText(at: index, DecimalText.parse(bytes:)).map { .value(.decimal($0)) }
        default: return nil
        }
    }
}
