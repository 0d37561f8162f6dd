import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// How a row of one entity becomes an object's slots, worked out once per entity when the
/// store schema is built: for each property position, which column to read and how.
///
/// Reading a row then walks a flat array of small steps instead of switching over each
/// property's `SchemaProperty` (whose `AttributeDescription` payload costs a dozen
/// retains and releases per copy), and produces the object's `StoredSlots` directly, so filling
/// an object is one assignment. The common attribute types are decoded inline; any
/// other type (binary data may be an external file's reference), and any value stored in an
/// unexpected form, goes through `SQLiteStore.decodeColumn` and `RowCodec.decode`, so the
/// result is exactly what they give.
package struct RowDecodePlan: Sendable {
    /// How one property position is filled.
    ///
    /// Every case is plain numbers, so that walking the steps for each row copies no
    /// reference: what a step needs beyond its column (a transformer, a destination's names
    /// or ID scope, a constant) lives in the plan's side tables, named by index. Steps with
    /// those payloads inline cost a retain and a release per property per row.
    enum Step: Sendable {
        /// A stored attribute: the column's offset among the table's columns, and how to read it.
        case attribute(column: Int32, reader: Reader)
        /// A transformable attribute whose transformer was looked up for this read (see
        /// `resolved(for:)`): its column and the transformer's index in `transformers`.
        case transformed(column: Int32, transformer: Int32)
        /// A to-one relationship stored as the destination's `_id`; the index of the
        /// destination's entity and root entity names (which name its object ID) in
        /// `destinations`.
        case toOne(column: Int32, destination: Int32)
        /// A to-one relationship, as `toOne`, with the destination IDs' scope made for this
        /// read (see `resolved(for:)`): its index in `scopes`.
        case toOneInScope(column: Int32, scope: Int32)
        /// A to-many relationship: a fault until first used.
        case toMany
        /// A property without a column: a transient attribute's default (`.null` for none),
        /// by its index in `constants`.
        case constant(Int32)
        /// A to-one relationship without a column: no destination.
        case noDestination
    }

    /// How a stored attribute's column is read.
    enum Reader: Sendable {
        case integer, boolean, double, decimal, date, string, uuid
        /// Binary data: a BLOB column's bytes copied straight from SQLite's buffer, without
        /// the `SQLiteValue` and the attribute description `RowCodec.decode` needs (copying
        /// that description out of the schema was a tenth of fetching a small object).
        case binary
        /// A transformable attribute that names a value transformer (its index in
        /// `transformerNames`): resolved once per read by `resolved(for:)`, since the registry
        /// takes a lock per lookup.
        case transformable(name: Int32)
        /// Anything else (URI, transformable without a transformer): through
        /// `RowCodec.decode`.
        case general
    }

    /// A step per property position of the entity.
    private(set) var steps: [Step]
    /// The names of the transformers `Reader.transformable` steps name.
    private var transformerNames: [String] = []
    /// The transformers of one read (see `resolved(for:)`), each in a box of its own:
    /// reading an element then copies one reference, where a tuple of an existential and a
    /// name was copied field by field through the runtime's generic witnesses for every row.
    private var transformers: [ResolvedTransformer] = []
    /// The entity and root entity names of to-one destinations.
    private var destinations: [(entityName: String, rootName: String)] = []
    /// The destination ID scopes of one read (see `resolved(for:)`).
    private var scopes: [ObjectID.Scope] = []
    /// The values of properties without a column.
    private var constants: [AttributeValue] = []

    /// The plan for `schema`'s rows in `table`; `columnIndex` is `EntityMapping.columnIndex`.
    init(schema: EntitySchema, table: TableMapping, columnIndex: [Int?]) {
        steps = []
        steps.reserveCapacity(schema.properties.count)
        for (position, property) in schema.properties.enumerated() {
            let column = columnIndex[position]
            switch property {
            case .attribute(let attribute):
                if let column {
                    steps.append(.attribute(column: Int32(column), reader: reader(for: attribute)))
                } else {
                    // A transient is not stored: it starts from its default, as on insert.
                    constants.append(attribute.isTransient ? (attribute.defaultValue ?? .null) : .null)
                    steps.append(.constant(Int32(constants.count - 1)))
                }
            case .relationship(let relationship):
                if relationship.isToMany {
                    steps.append(.toMany)
                } else if let column, case .toOne(_, let destinationTable) = table.columns[column].kind {
                    destinations.append((relationship.destinationEntityName, destinationTable))
                    steps.append(.toOne(column: Int32(column), destination: Int32(destinations.count - 1)))
                } else {
                    steps.append(.noDestination)
                }
            }
        }
    }

    /// How `attribute`'s column is read; a transformer's name is added to `transformerNames`.
    private mutating func reader(for attribute: AttributeDescription) -> Reader {
        guard attribute.type == .transformable, let name = attribute.valueTransformerName else { return Reader(attribute) }
        transformerNames.append(name)
        return .transformable(name: Int32(transformerNames.count - 1))
    }

    /// The plan for one read of many rows from `store`: each transformable attribute's
    /// transformer looked up and each to-one's ID scope made now, not per row. Looking
    /// transformers up per row would take the registry's lock once for every row fetched.
    /// An attribute whose transformer is not registered is read through `RowCodec.decode`,
    /// which passes its bytes through (see `RowCodec`).
    func resolved(for store: SQLiteStore) -> RowDecodePlan {
        var resolved = self
        for (position, step) in steps.enumerated() {
            switch step {
            case .attribute(let column, .transformable(let index)):
                let name = transformerNames[Int(index)]
                if let transformer = ValueTransformers.transformer(forName: name) {
                    resolved.transformers.append(ResolvedTransformer(transformer: transformer, name: name))
                    resolved.steps[position] = .transformed(
                        column: column, transformer: Int32(resolved.transformers.count - 1))
                } else {
                    resolved.steps[position] = .attribute(column: column, reader: .general)
                }
            case .toOne(let column, let index):
                let destination = destinations[Int(index)]
                resolved.scopes.append(store.idScope(entityName: destination.entityName, rootName: destination.rootName))
                resolved.steps[position] = .toOneInScope(column: column, scope: Int32(resolved.scopes.count - 1))
            default:
                continue
            }
        }
        return resolved
    }

    /// The slots of the current row's `columns` (of `mapping`'s entity, with this primary
    /// key). Values not decoded inline go through `store.decodeColumn`, which also reads
    /// external data files.
    ///
    /// - Throws: `StoreError.corruptValue` when a stored value cannot be read as its
    ///   attribute's type; `StoreError.unreadableExternalData` for a missing external file.
    func slots(
        of columns: borrowing RowColumns, mapping: EntityMapping, primaryKey: Int64, store: SQLiteStore
    ) throws -> StoredSlots {
        let schema = mapping.schema
        // A value not decoded inline: through `RowCodec.decode`, or an external data file.
        func decoded(_ raw: SQLiteValue, at position: Int) throws -> StoredSlot {
            guard case .attribute(let attribute) = schema.properties[position] else { return .value(.null) }
            return .value(try store.decodeColumn(raw, for: attribute, mapping: mapping, primaryKey: primaryKey))
        }
        // A to-one's destination ID from its column, in `scope`.
        func destination(at column: Int32, in scope: @autoclosure () -> ObjectID.Scope) -> StoredSlot {
            guard columns.storageClass(column) == .integer else { return .toOneFault(nil) }
            return .toOneFault(ObjectID(scope: scope(), key: .permanent(columns[column].int64)))
        }
        // The position's slot.
        func slot(at position: Int) throws -> StoredSlot {
            switch steps[position] {
            case .attribute(let column, let reader):
                if let slot = reader.slot(of: columns[column], storageClass: columns.storageClass(column)) {
                    return slot
                }
                return try decoded(columns[column].value, at: position)
            case .transformed(let column, _):
                // NULL, or an external data file's reference: a blob is decoded as the storage is
                // written, below, without a slot.
                return try decoded(columns[column].value, at: position)
            case .toOne(let column, let index):
                let names = destinations[Int(index)]
                return destination(at: column, in: store.idScope(entityName: names.entityName, rootName: names.rootName))
            case .toOneInScope(let column, let index):
                return destination(at: column, in: scopes[Int(index)])
            case .toMany:
                return .toManyFault
            case .constant(let index):
                return .value(constants[Int(index)])
            case .noDestination:
                return .toOneFault(nil)
            }
        }
        // First the slots stored: a NULL column's slot is not, below position 56 (see
        // `PropertySlots`); every other step's is (a constant is a transient's default,
        // stored even when NULL).
        var storedCount = 0
        var presence: UInt64 = 0
        for position in steps.indices {
            switch steps[position] {
            case .attribute(let column, _), .transformed(let column, _):
                guard columns.storageClass(column) != .null || position >= StoredSlots.storageBitCount else { continue }
            default:
                break
            }
            storedCount += 1
            if position < StoredSlots.storageBitCount { presence |= 1 << UInt64(position) }
        }
        // Each value decoded straight into the storage (see `StoredSlots.init(…decoding:)`);
        // a string's bytes without a `String` made for them, and a transformable's app value
        // without a slot around it, whose case would box it.
        var position = 0
        return try StoredSlots(
            count: steps.count, presence: presence, storedCount: storedCount,
            keptNulls: schema.transientAttributePositions
        ) { _, payload in
            while position < StoredSlots.storageBitCount, presence & 1 << UInt64(position) == 0 { position += 1 }
            defer { position += 1 }
            // The usual values are written into the storage as they are read (a string's bytes
            // copied from SQLite's buffer, inline when they fit); anything else goes through
            // `slot(at:)`, which reads or reports it.
            switch steps[position] {
            case .attribute(let column, let reader):
                let (value, storageClass) = (columns[column], columns.storageClass(column))
                if case .string = reader, storageClass == .text { return value.withText { payload.store(utf8: $0) } }
                if let kind = reader.value(of: value, storageClass: storageClass, payload.store) { return kind }
            case .transformed(let column, let index) where columns.storageClass(column) == .blob:
                let resolved = transformers[Int(index)]
                return payload.store(
                    transformable: try TransformableCodec.reverseTransform(
                        columns[column].data, with: resolved.transformer,
                        transformerName: resolved.name, attribute: schema.propertyNames[position],
                        entity: schema.name))
            case .toOneInScope(let column, let index) where columns.storageClass(column) == .integer:
                return payload.store(destinationKey: columns[column].int64, in: scopes[Int(index)])
            default:
                break
            }
            return payload.store(try slot(at: position))
        }
    }
}

/// A transformer looked up for one read, with the name it was registered under (for errors).
private final class ResolvedTransformer: Sendable {
    let transformer: any ValueTransforming
    let name: String

    init(transformer: any ValueTransforming, name: String) {
        self.transformer = transformer
        self.name = name
    }
}

extension RowDecodePlan.Reader {
    /// The reader of `attribute`'s column outside a plan: a transformable attribute's bytes
    /// go through `RowCodec.decode` (a plan reads them with their transformer instead).
    init(_ attribute: AttributeDescription) {
        switch attribute.type {
        case .integer16, .integer32, .integer64: self = .integer
        case .boolean: self = .boolean
        case .double, .float: self = .double
        case .decimal: self = .decimal
        case .date: self = .date
        case .string: self = .string
        case .uuid: self = .uuid
        // Bytes kept in an external file have a reference (TEXT) in the column instead:
        // that reads through `decodeColumn`, which opens the file.
        case .binaryData: self = .binary
        default: self = .general
        }
    }

    /// The slot of the statement's column at `index`, read straight from SQLite when the
    /// column holds the storage class `RowCodec.encode` writes for the type (or NULL): no
    /// `SQLiteValue` in between, and UUIDs and decimals parsed from SQLite's buffer without a
    /// `String`. Nil for anything else, which `RowCodec.decode` then reads or reports.
    func slot(at index: Int32, of statement: Statement) -> StoredSlot? {
        let value = statement.column(at: index)
        return slot(of: value, storageClass: value.storageClass)
    }

    /// As `slot(at:of:)`, for a column found and its storage class read.
    func slot(of column: ColumnValue, storageClass: SQLiteStorageClass) -> StoredSlot? {
        value(of: column, storageClass: storageClass) { .value($0) }
    }

    /// `use` of the column's value, read straight from SQLite when the column holds the
    /// storage class `RowCodec.encode` writes for the type (or NULL); nil for anything else.
    /// Inlined, so that a caller storing the value (`SlotPayload.store(_:)`) switches over no
    /// `AttributeValue` it just made.
    @inline(__always)
    func value<R>(of column: ColumnValue, storageClass: SQLiteStorageClass, _ use: (AttributeValue) -> R) -> R? {
        switch (self, storageClass) {
        case (_, .null): return use(.null)
        case (.integer, .integer): return use(.integer(column.int64))
        case (.boolean, .integer): return use(.bool(column.int64 != 0))
        case (.double, .real): return use(.double(column.double))
        case (.date, .real): return use(.date(Date(timeIntervalSince1970: column.double)))
        case (.string, .text): return use(.string(column.withText { String(decoding: $0, as: UTF8.self) }))
        case (.uuid, .text): return column.withText(UUIDText.parseCanonical).map { use(.uuid($0)) }
        case (.decimal, .text): return column.withText(DecimalText.parse(bytes:)).map { use(.decimal($0)) }
        case (.binary, .blob): return use(.data(column.data))
        default: return nil
        }
    }
}
