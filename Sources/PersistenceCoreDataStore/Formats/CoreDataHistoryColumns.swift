import Foundation
import PersistenceModel

/// How Core Data names an entity's properties in its persistent history: which properties an
/// update wrote (`ACHANGE.ZCOLUMNS`) and which attribute a deleted object's tombstone column
/// (`ACHANGE.ZTOMBSTONE<n>`) holds.
///
/// Apple documents what the columns mean, not how they are laid out:
/// `NSPersistentHistoryChange.updatedProperties` is "the set of properties that were
/// updated", expected on changes of type `.update`; `tombstone` holds the values of the
/// attributes marked "preserve after deletion". The layout below is read off the real rows
/// Core Data wrote in the corpus: the two Apple Notes stores (`AppleNotesParser-macOS15-NoteStore.sqlite`,
/// `AppleNotesParser-macOS26-NoteStore.sqlite`: 394 updates of 10 entities, 4 to 95 properties, one, two and
/// three levels deep) and `CoreDataPlus-SampleModel2_V2.sqlite` (126 inserts):
///
/// - `ZCOLUMNS` is NULL on every insert and every delete (the 126, 76 and 91 inserts and 4 and 13 deletes).
/// - On an update it is a bitmap read most significant bit first (bit 0 is `0x80` of the
///   first byte; reading least significant bit first puts bits past the end), one slot per
///   stored property of the object's own entity, inherited ones included, in three groups:
///   the to-one relationships, then the attributes, then the to-many relationships, each
///   group sorted by name; a to-one whose destination has sub-entities has a second slot
///   (its `Z<n>_` entity column), and both are set when it is written. The bitmap is as long
///   as the slots need, whole bytes: 394 of 394 lengths match.
/// - Why this order and not another: it is the one of those tried (all properties sorted by
///   name, as a public reader claims; attributes then relationships; the table's column
///   order; column names sorted; the model's order) that puts no set bit past the last slot
///   and reads every update the way the data says it went: each edit of a note's body sets
///   `ICNoteData.data` (31 of 31; all names sorted would say `note`, a to-one that never
///   changed), each `ICCloudState` bump sets `currentLocalVersion` and `localVersionDate`
///   (92 of 92; all sorted would say `inCloud` and a sixth slot of five properties), and an
///   account's or folder's updates set the to-manys new notes and folders join (`notes`,
///   `folders`, `hashtags`, `attachments`, `children`).
/// - Tombstone column *n* holds the *n*-th of the entity's preserved attributes sorted by
///   name, stored as its row column stores it. No corpus store preserves a value (their
///   `ACHANGE` has no `ZTOMBSTONE` column, as Core Data adds them only for such models), so
///   this follows the same sorting and public readers of Photos stores (whose `ZTOMBSTONE0`
///   holds an asset's UUID text, a date column a REAL).
///
/// Reading is defensive where the layout could differ: a bitmap naming a bit past the
/// entity's slots reads as nil ("unknown"), never as a partial set.
enum CoreDataHistoryColumns {
    /// The properties the bits of `ZCOLUMNS` stand for, in bit order: `schema`'s stored
    /// to-ones (twice for those in `withEntityColumn`), attributes and to-manys, each sorted.
    static func propertyOrder(of schema: EntitySchema, withEntityColumn: Set<String> = []) -> [String] {
        var toOnes: [String] = [], attributes: [String] = [], toManys: [String] = []
        for property in schema.properties where !property.isTransient {
            switch property {
            case .attribute(let attribute) where attribute.isStored: attributes.append(attribute.name)
            case .attribute: continue
            case .relationship(let relationship):
                if relationship.isToMany { toManys.append(relationship.name) } else { toOnes.append(relationship.name) }
            }
        }
        let ones = toOnes.sorted().flatMap { withEntityColumn.contains($0) ? [$0, $0] : [$0] }
        return ones + attributes.sorted() + toManys.sorted()
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
