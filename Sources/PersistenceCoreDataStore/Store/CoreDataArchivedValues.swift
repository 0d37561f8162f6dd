import Foundation
import PersistenceModel

/// Transformable values Core Data keeps as keyed archives: those of an attribute that names
/// no transformer, or one of Foundation's unarchiving transformers, when the app registered
/// none under that name. Read with `KeyedArchive` (never Foundation's unarchiver, which traps
/// on Linux for a class it does not know), written with `KeyedArchiveEncoder`.
enum CoreDataArchivedValues {
    /// Whether a model's transformer name is one of Foundation's that keep a value as a keyed
    /// archive: the secure and the keyed "unarchive from data" transformers, by either of
    /// their names (matched on the name's ending: this store never calls them, it only
    /// recognises the names models give).
    static func isArchivingTransformer(_ name: String) -> Bool {
        name.hasPrefix("NS") && (name.hasSuffix("UnarchiveFromData") || name.hasSuffix("UnarchiveFromDataTransformer"))
    }

    /// Whether `attribute`'s values are keyed archives this store reads and writes itself.
    static func isArchived(_ attribute: AttributeDescription) -> Bool {
        guard let name = attribute.valueTransformerName else { return true }
        return isArchivingTransformer(name) && ValueTransformers.transformer(forName: name) == nil
    }

    /// The archive of a property-list value (strings, numbers, data, dates, UUIDs, URLs,
    /// arrays, dictionaries, null), or nil for any other value.
    static func archive(_ value: Any) throws -> Data? {
        guard let archived = archivedValue(value) else { return nil }
        return try KeyedArchiveEncoder.encode(archived)
    }

    private static func archivedValue(_ value: Any) -> ArchivedValue? {
        switch value {
        case is NSNull: return .null
        case let v as String: return .string(v)
        case let v as Bool: return .bool(v)
        case let v as Int64: return .integer(v)
        case let v as Int: return .integer(Int64(v))
        case let v as UInt64: return .unsignedInteger(v)
        case let v as Double: return .real(v)
        case let v as Data: return .data(v)
        case let v as Date: return .date(v)
        case let v as UUID: return .uuid(v)
        case let v as URL: return .url(v)
        case let v as [Any]:
            var elements: [ArchivedValue] = []
            for element in v {
                guard let archived = archivedValue(element) else { return nil }
                elements.append(archived)
            }
            return .array(elements)
        case let v as [AnyHashable: Any]:
            var entries: [ArchivedValue: ArchivedValue] = [:]
            for (key, element) in v {
                guard let k = archivedValue(key.base), let e = archivedValue(element) else { return nil }
                entries[k] = e
            }
            return .dictionary(entries)
        default: return nil
        }
    }
}
