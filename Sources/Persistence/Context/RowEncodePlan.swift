import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteStore

/// How a save turns an object's slots into its row's column values: the stored properties
/// of one entity, each with its column, worked out once per entity and save.
///
/// Walking `schema.properties` per object copied each `SchemaProperty` (and its
/// description's strings) out of the schema; the plan keeps only what encoding needs. A
/// class, so that handing the plan out per object retains one reference, not the eight of
/// its mapping and arrays.
final class RowEncodePlan {
    /// One stored property and its column.
    /// (Small on purpose: each is copied per object and column.)
    struct Column {
        /// The property's position in the entity.
        let position: Int
        /// The column's index in the table's columns.
        let column: Int
    }

    /// The entity's mapping to its table.
    let mapping: EntityMapping
    /// Every stored property with a column, in property order.
    let columns: [Column]
    /// The column of each property position; nil for one without a column.
    let columnOfPosition: [Int?]
    /// The attribute at each position, for a transformable value's transformer; nil for a
    /// relationship.
    let attributes: [AttributeDescription?]

    /// The plan of `mapping`'s entity.
    init(_ mapping: EntityMapping) {
        self.mapping = mapping
        self.columns = mapping.columnIndex.enumerated().compactMap { position, column in
            column.map { Column(position: position, column: $0) }
        }
        self.columnOfPosition = mapping.columnIndex
        self.attributes = mapping.schema.properties.map { property in
            if case .attribute(let attribute) = property { return attribute }
            return nil
        }
    }

    /// Every column value of an object's row, in column order. A to-one pointing at an
    /// object inserted by the running save takes the key the save gave it.
    ///
    /// - Throws: `ValueTransformerError` when a transformable value cannot be encoded.
    func values(of object: ManagedObject) throws -> [SQLiteValue] {
        object.fireFaultIfNeeded()
        var values = [SQLiteValue](repeating: .null, count: mapping.table.columns.count)
        let slots = object.slots  // one read of the object's array, not one per column
        for column in columns {
            values[column.column] = try value(of: slots[column.position], column)
        }
        return values
    }

    /// The changed columns of an updated object's row and their values, in column order.
    ///
    /// - Parameter positions: the changed property positions (`changedPositions()`).
    /// - Throws: as `values(of:)`.
    func changedValues(of object: ManagedObject, positions: [Int]) throws -> (
        columns: [Int], values: [SQLiteValue]
    ) {
        object.fireFaultIfNeeded()
        var changed: [(column: Int, value: SQLiteValue)] = []
        changed.reserveCapacity(positions.count)
        let slots = object.slots
        for column in columns where positions.contains(column.position) {
            changed.append((column.column, try value(of: slots[column.position], column)))
        }
        changed.sort { $0.column < $1.column }
        return (changed.map(\.column), changed.map(\.value))
    }

    /// One column's value.
    private func value(of slot: Slot, _ column: Column) throws -> SQLiteValue {
        switch slot {
        case .value(let value):
            guard case .transformable = value else { return RowCodec.encodeUntransformed(value) }
            guard let attribute = attributes[column.position] else { return .null }
            return try RowCodec.encode(value, for: attribute, entity: mapping.schema.name)
        case .toOneFault(let id?):
            return id.primaryKey.map(SQLiteValue.integer) ?? .null
        case .toOne(let destination?):
            if let key = destination.rowKey { return .integer(key) }
            return .null
        default:
            return .null
        }
    }
}

/// The row encode plans of one save, by entity, made when an entity's first object is met.
struct RowEncodePlans {
    private var byEntity: [ObjectIdentifier: RowEncodePlan] = [:]
    /// The last plan handed out: consecutive objects are mostly of one entity.
    private var last: RowEncodePlan?

    /// The plan for `object`'s entity.
    mutating func plan(for object: ManagedObject, in context: ManagedObjectContext) throws -> RowEncodePlan {
        if let last, last.mapping.schema === object.schema { return last }
        let id = ObjectIdentifier(object.schema)
        let plan = try byEntity[id] ?? RowEncodePlan(context.mapping(of: object))
        byEntity[id] = plan
        last = plan
        return plan
    }
}

/// A row of the store that an insert took over under object-trump merging.
struct TrumpedRow: Hashable {
    /// The root entity, whose table holds the row.
    let rootName: String
    /// The row's primary key.
    let key: Int64
}
