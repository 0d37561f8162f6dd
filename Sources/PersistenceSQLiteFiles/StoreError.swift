import PersistenceModel
import PersistenceSQLite
import PersistenceStore
/// A store that cannot be opened or written, with the file and the reason.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The file is an SQLite database, but not one a Persistence store wrote.
    case notAPersistenceStore(path: String)
    /// The store was written with a model whose entities differ from this one's.
    case incompatibleModel(path: String, differences: [String])
    /// A transformable attribute names a transformer that is not registered.
    case missingValueTransformer(name: String, attribute: String)
    /// A column holds a value that cannot be read as its attribute's type.
    case corruptValue(entity: String, attribute: String, found: String)
    /// The directory the store file should be in does not exist.
    case missingDirectory(path: String)
    /// The path names a directory, not a store file.
    case isADirectory(path: String)
    /// There is no store file at the path (for operations that never create one).
    case noStore(path: String)
    /// The path names something that is not a regular file (a FIFO, a device, a socket, a
    /// link to nothing): refused before SQLite opens it. `kind` says what it is.
    case notARegularFile(path: String, kind: String)
    /// External data for a binary attribute could not be written or read.
    case externalData(path: String, reason: String)
    /// A value stored in an external data file cannot be read back: the file is missing,
    /// unreadable, or not the size its row records. `object` is the row (`Book/p12`).
    case unreadableExternalData(object: String, attribute: String, path: String, reason: String)
    /// A row of a hierarchy's table whose `_entity` names no entity of that hierarchy (an
    /// edit by hand): refused, never passed over, so that no read is silently short of it.
    case unplacedRow(table: String, key: Int64, entity: String)

    /// Whether the store's data itself is refused (another program's file, another model's
    /// store, a value or external file that cannot be read), rather than its path or this
    /// process's setup: the tools report such a store as bad data (exit 65).
    public var isRefusedData: Bool {
        switch self {
        case .notAPersistenceStore, .incompatibleModel, .corruptValue, .unreadableExternalData, .unplacedRow:
            return true
        default: return false
        }
    }

    /// A sentence naming the file and what is wrong.
    public var description: String {
        switch self {
        case .notAPersistenceStore(let path):
            return "\(path) is an SQLite database, but not a Persistence store; it was left untouched"
        case .incompatibleModel(let path, let differences):
            return "The store \(path) was written with a different model and can't be opened with "
                + "this one (\(QuotedText.list(differences, separator: "; "))); it was left untouched"
        case .missingValueTransformer(let name, let attribute):
            return "\(attribute) uses the value transformer '\(name)', but none is registered under "
                + "that name: register it with ValueTransformers.register(_:forName:) before "
                + "opening the store"
        case .corruptValue(let entity, let attribute, let found):
            return "The store holds a \(found) value for \(entity).\(attribute) that can't be read "
                + "as the attribute's type"
        case .missingDirectory(let path):
            return "The directory \(path) does not exist"
        case .isADirectory(let path):
            return "\(path) is a directory, not a store file"
        case .noStore(let path):
            return "There is no store at \(path)"
        case .notARegularFile(let path, let kind):
            return "\(path) is \(kind), not a store file; it was left untouched"
        case .externalData(let path, let reason):
            return "External data \(path): \(reason)"
        case .unplacedRow(let table, let key, let entity):
            return "Row \(table)/p\(key) has _entity '\(entity)', which names no entity of \(table)'s "
                + "hierarchy; the row can't be placed, so the store is refused rather than read without it"
        case .unreadableExternalData(let object, let attribute, let path, let reason):
            return "The value of \(attribute) for \(object) is stored in the external data file "
                + "\(path), but \(reason); the store's _SUPPORT folder must stay beside the store file"
        }
    }
}
