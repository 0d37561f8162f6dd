import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore

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
    /// Every column of the object's row, in the table's order.
    func values(of object: any SavedObject) throws -> [SQLiteValue] {
        var values = [SQLiteValue](repeating: .null, count: mapping.table.columns.count)
        for column in columns {
            values[column.column] = try value(of: object.storedSlot(at: column.position), column)
        }
        return values
    }

    /// The columns at the changed property positions (sorted by column) and their values.
    func changedValues(of object: any SavedObject, positions: [Int]) throws -> (
        columns: [Int], values: [SQLiteValue]
    ) {
        var changed: [(column: Int, value: SQLiteValue)] = []
        changed.reserveCapacity(positions.count)
        for column in columns where positions.contains(column.position) {
            changed.append((column.column, try value(of: object.storedSlot(at: column.position), column)))
        }
        changed.sort { $0.column < $1.column }
        return (changed.map(\.column), changed.map(\.value))
    }

    /// The column value of one slot: an attribute's encoded value, a to-one's key.
    func value(of slot: StoredSlot, _ column: Column) throws -> SQLiteValue {
        switch slot {
        case .value(let value):
            guard case .transformable = value else { return RowCodec.encodeUntransformed(value) }
            guard let attribute = attributes[column.position] else { return .null }
            return try RowCodec.encode(value, for: attribute, entity: mapping.schema.name)
        case .toOneFault(let id?):
            return id.primaryKey.map(SQLiteValue.integer) ?? .null
        default:
            return .null
        }
    }
}

/// The encode plans of one transaction, by entity.
struct RowEncodePlans {
    private var byEntity: [ObjectIdentifier: RowEncodePlan] = [:]
    private var last: RowEncodePlan?

    /// The plan already made for `schema`'s entity, if any: found without looking its
    /// mapping up by name and copying it out of the store's schema, once per written row.
    func plan(for schema: EntitySchema) -> RowEncodePlan? {
        if let last, last.mapping.schema === schema { return last }
        return byEntity[ObjectIdentifier(schema)]
    }

    /// The plan for the entity `mapping` maps.
    mutating func plan(for mapping: EntityMapping) -> RowEncodePlan {
        if let last, last.mapping.schema === mapping.schema { return last }
        let id = ObjectIdentifier(mapping.schema)
        let plan = byEntity[id] ?? RowEncodePlan(mapping)
        byEntity[id] = plan
        last = plan
        return plan
    }
}
