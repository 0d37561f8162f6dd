import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore

/// How a row of one entity in Core Data's layout becomes its slots, worked out once per
/// entity and connection: for each property position, which column of the table's select
/// list (`CoreDataStore.selectedColumns`) to read and how.
///
/// Reading a row then walks a flat array of small steps, reading each column straight from
/// the statement, where `CoreDataStore.decode(_:_:)` copied the row into `SQLiteValue`s,
/// worked out every column's offset and looked up each property's column by name for every
/// row. The common encodings are read inline: integers and booleans, doubles, timestamps
/// (seconds since 2001), strings and UUIDs (16 bytes); anything else (a decimal, a
/// transformable, binary data that may be an external file's name, NaN kept as text, a value
/// stored in an unexpected form) goes through `CoreDataValueCodec.decode`, so that the result
/// is exactly what it gives.
struct CoreDataRowDecodePlan {
    /// How one property position is filled.
    enum Step {
        /// A stored attribute: its column in the select list, how to read it, and the
        /// attribute (its index in `attributes`) for what is not read inline.
        case attribute(column: Int32, reader: Reader, attribute: Int32)
        /// A to-one: its key column, its destination-entity column when it has one, and the
        /// index of its destination in `destinations`.
        case toOne(column: Int32, entityColumn: Int32?, destination: Int32)
        /// A to-many: a fault until first used.
        case toMany
        /// A property without a column: a transient attribute's default (`.null` for none),
        /// by its index in `constants`.
        case constant(Int32)
        /// A to-one without a column: no destination.
        case noDestination
    }

    /// How a stored attribute's column is read inline.
    enum Reader {
        case integer, boolean, double, date, string, uuid
        /// Through `CoreDataValueCodec.decode`.
        case general
    }

    /// A to-one's destination: the scope of its IDs, and those of the destination's
    /// sub-entities by `Z_ENT` (what the destination-entity column names).
    struct Destination {
        let scope: ObjectID.Scope
        let scopesByNumber: [Int64: ObjectID.Scope]
    }

    /// The entity whose rows the plan reads.
    let schema: EntitySchema
    /// The scope of the entity's object IDs.
    let idScope: ObjectID.Scope
    /// A step per property position.
    private(set) var steps: [Step] = []
    /// The attributes read through `CoreDataValueCodec`.
    private var attributes: [AttributeDescription] = []
    /// The destinations of to-ones.
    private var destinations: [Destination] = []
    /// The values of properties without a column.
    private var constants: [AttributeValue] = []

    /// The plan for `entity`'s rows in `table`, read by `store`.
    init(entity schema: EntitySchema, table: CoreDataLayout.Table, store: CoreDataStore) {
        self.schema = schema
        idScope = store.idScope(entityName: schema.name, rootName: schema.rootName)
        // Each column's place in the select list: Z_PK, Z_ENT, Z_OPT, then each column (a
        // to-one's key, then its entity column when it has one).
        var offsets: [Int32] = []
        var offset: Int32 = 3
        for column in table.columns {
            offsets.append(offset)
            if case .toOne(_, let entityColumn) = column.kind, entityColumn != nil { offset += 2 } else { offset += 1 }
        }
        steps.reserveCapacity(schema.properties.count)
        for property in schema.properties {
            switch property {
            case .attribute(let attribute):
                guard attribute.isStored, let index = table.index(of: attribute.name, in: schema.name) else {
                    constants.append(attribute.isTransient ? (attribute.defaultValue ?? .null) : .null)
                    steps.append(.constant(Int32(constants.count - 1)))
                    continue
                }
                attributes.append(attribute)
                steps.append(
                    .attribute(column: offsets[index], reader: Self.reader(for: attribute), attribute: Int32(attributes.count - 1)))
            case .relationship(let relationship):
                if relationship.isToMany {
                    steps.append(.toMany)
                    continue
                }
                guard let index = table.index(of: relationship.name, in: schema.name),
                    case .toOne(_, let entityColumn) = table.columns[index].kind,
                    let destination = store.layout.entities[relationship.destinationEntityName]
                else {
                    steps.append(.noDestination)
                    continue
                }
                let rootName = destination.schema.rootName
                var scopes: [Int64: ObjectID.Scope] = [:]
                if entityColumn != nil {
                    for number in destination.hierarchyNumbers {
                        guard let name = store.layout.entityNames[number], store.layout.entities[name]?.schema.rootName == rootName
                        else { continue }
                        scopes[number] = store.idScope(entityName: name, rootName: rootName)
                    }
                }
                destinations.append(
                    Destination(
                        scope: store.idScope(entityName: destination.schema.name, rootName: rootName), scopesByNumber: scopes))
                steps.append(
                    .toOne(
                        column: offsets[index], entityColumn: entityColumn == nil ? nil : offsets[index] + 1,
                        destination: Int32(destinations.count - 1)))
            }
        }
    }

    /// The reader of an attribute's column: inline for the encodings read exactly here.
    static func reader(for attribute: AttributeDescription) -> Reader {
        switch attribute.type {
        case .integer16, .integer32, .integer64: .integer
        case .boolean: .boolean
        case .double, .float: .double
        case .date: .date
        case .string: .string
        case .uuid: .uuid
        default: .general
        }
    }

    /// The row at the statement's current step: its key, version and slots.
    ///
    /// Each value is written straight into the row's slot storage (`StoredSlots`'
    /// decoding initializer), a string's bytes copied from SQLite's buffer, a to-one's key
    /// into its ID: no array of slots is made and copied for each row.
    ///
    /// - Throws: `StoreError.corruptValue` for a value of the wrong type;
    ///   `StoreError.unreadableExternalData` for an external file that cannot be read.
    func row(of statement: Statement, key: Int64, store: CoreDataStore) throws -> StoreRow {
        let bits = StoredSlots.storageBitCount
        // The slots stored: every one but an attribute's NULL below position 56 (see
        // `PropertySlots`).
        var storedCount = 0
        var presence: UInt64 = 0
        for position in steps.indices {
            if position < bits, case .attribute(let column, _, _) = steps[position],
                statement.column(at: column).storageClass == .null
            {
                continue
            }
            storedCount += 1
            if position < bits { presence |= 1 << UInt64(position) }
        }
        var position = 0
        let slots = try StoredSlots(
            count: steps.count, presence: presence, storedCount: storedCount, keptNulls: schema.transientAttributePositions
        ) { _, payload in
            while position < bits, presence & 1 << UInt64(position) == 0 { position += 1 }
            defer { position += 1 }
            switch steps[position] {
            case .attribute(let column, let reader, let attribute):
                let cell = statement.column(at: column)
                if case .string = reader, cell.storageClass == .text { return cell.withText { payload.store(utf8: $0) } }
                if let value = Self.inlineValue(of: cell, reader: reader) { return payload.store(value) }
                return payload.store(
                    try CoreDataValueCodec.decode(
                        cell.value, for: attributes[Int(attribute)], entity: schema.name, object: "\(schema.name)/p\(key)",
                        externalFolder: store.externalFolder, decodesArchives: !store.passesArchivesThrough, path: store.path))
            case .toOne(let column, let entityColumn, let index):
                let cell = statement.column(at: column)
                guard cell.storageClass == .integer else { return payload.store(.toOneFault(nil)) }
                let destination = destinations[Int(index)]
                var scope = destination.scope
                if let entityColumn {
                    let number = statement.column(at: entityColumn)
                    if number.storageClass == .integer, let named = destination.scopesByNumber[number.int64] { scope = named }
                }
                return payload.store(destinationKey: cell.int64, in: scope)
            case .toMany:
                return payload.store(.toManyFault)
            case .constant(let index):
                return payload.store(.value(constants[Int(index)]))
            case .noDestination:
                return payload.store(.toOneFault(nil))
            }
        }
        let version = statement.column(at: 2)
        return StoreRow(
            schema: schema, primaryKey: key, idScope: idScope, slots: slots,
            version: version.storageClass == .integer ? version.int64 : 1)
    }

    /// The value of a column holding the encoding `CoreDataValueCodec` writes for the
    /// reader's type (or NULL), read straight from SQLite; nil for anything else, which
    /// `CoreDataValueCodec.decode` then reads or reports.
    @inline(__always)
    static func inlineValue(of cell: ColumnValue, reader: Reader) -> AttributeValue? {
        switch (reader, cell.storageClass) {
        case (_, .null): return .null
        case (.integer, .integer): return .integer(cell.int64)
        case (.boolean, .integer): return .bool(cell.int64 != 0)
        case (.double, .real): return .double(cell.double)
        case (.double, .integer): return .double(Double(cell.int64))
        case (.date, .real): return .date(CoreDataTimestamp.date(fromSeconds: cell.double))
        case (.date, .integer): return .date(CoreDataTimestamp.date(fromSeconds: Double(cell.int64)))
        case (.string, .text): return .string(cell.withText { String(decoding: $0, as: UTF8.self) })
        case (.uuid, .blob):
            return cell.withBlob { bytes -> AttributeValue? in
                bytes.count == 16 ? .uuid(UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))) : nil
            }
        default:
            return nil
        }
    }
}
