import Foundation
import PersistenceModel

/// How Core Data names an entity's properties in its persistent history: which properties an
/// update wrote (`ACHANGE.ZCOLUMNS`) and which attribute a deleted object's tombstone column
/// (`ACHANGE.ZTOMBSTONE<n>`) holds.
///
/// Where each rule comes from:
///
/// - Apple documents what the columns mean, not how they are laid out:
///   `NSPersistentHistoryChange.updatedProperties` is "the set of properties that were
///   updated", expected on changes of type `.update`; `tombstone` holds the values of the
///   attributes marked "preserve after deletion" (`preservesValueInHistoryOnDeletion`).
/// - The corpus store Core Data wrote with history (`CoreDataPlus-SampleModel2_V2.sqlite`,
///   126 changes, all inserts) leaves `ZCOLUMNS` NULL on every insert; its model preserves no
///   attribute, and its `ACHANGE` has no `ZTOMBSTONE` column: the columns exist only for
///   models that preserve something, one per index.
/// - No corpus store holds an update, so the bitmap's layout is taken from public readers of
///   real stores (Apple Notes' and Photos' history, which are full of updates): a bitmap read
///   most significant bit first (bit 0 is `0x80` of the first byte), bit *i* standing for the
///   *i*-th of the entity's non-transient properties sorted by name, attributes and
///   relationships in one list, inherited ones included (so two entities of one table have
///   different orders, as a bit means a name); tombstone column *n* holds the *n*-th of the
///   entity's preserved attributes sorted by name, stored as its row column stores it
///   (Photos' `ZTOMBSTONE0` holds an asset's UUID text, a date column's a REAL).
///   The bitmap is as long as the entity's properties need, whole bytes, no more.
///
/// Reading is defensive where the layout could differ: a bitmap naming a bit past the
/// entity's properties reads as nil ("unknown"), never as a partial set.
enum CoreDataHistoryColumns {
    /// The properties a bit of `ZCOLUMNS` can stand for, in bit order.
    static func propertyOrder(of schema: EntitySchema) -> [String] {
        schema.properties.filter { !$0.isTransient }.map(\.name).sorted()
    }

    /// The attributes whose values a deleted object's tombstone keeps, in `ZTOMBSTONE<n>` order.
    static func tombstoneAttributes(of schema: EntitySchema) -> [AttributeDescription] {
        schema.properties.compactMap { property -> AttributeDescription? in
            guard case .attribute(let attribute) = property, attribute.isStored, attribute.preservesValueInHistoryOnDeletion
            else { return nil }
            return attribute
        }.sorted { $0.name < $1.name }
    }

    /// The `ZCOLUMNS` bitmap of an update that wrote `names`, in `order` (properties not in
    /// `order`, transient ones, are left out).
    static func bitmap(of names: Set<String>, order: [String]) -> Data {
        var bytes = [UInt8](repeating: 0, count: (order.count + 7) / 8)
        for (index, name) in order.enumerated() where names.contains(name) {
            bytes[index / 8] |= 0x80 >> UInt8(index % 8)
        }
        return Data(bytes)
    }

    /// The property names a `ZCOLUMNS` bitmap stands for, in `order`; nil when it sets a bit
    /// past the last property (a store written with another model).
    static func names(in bitmap: Data, order: [String]) -> Set<String>? {
        var names: Set<String> = []
        for (byteIndex, byte) in bitmap.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
                let index = byteIndex * 8 + bit
                guard index < order.count else { return nil }
                names.insert(order[index])
            }
        }
        return names
    }
}
