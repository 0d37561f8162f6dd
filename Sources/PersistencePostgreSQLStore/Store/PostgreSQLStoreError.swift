#if PostgreSQL
import Foundation
import PersistenceStore

/// Why a PostgreSQL store cannot be opened or read, beside the server's own errors
/// (`PostgreSQLError`).
package enum PostgreSQLStoreError: Error, Equatable, CustomStringConvertible {
    /// The database holds tables, but not a Persistence store's.
    case notAPersistenceStore(database: String)
    /// The database holds a store of another model (or another version of it).
    case incompatibleModel(database: String, differences: [String])
    /// The store was written with an older version of the model and cannot be migrated to
    /// this one: the change needs a mapping model, or existing data refuses it (the
    /// migration was rolled back). `reason` is the `MigrationError`'s sentence.
    case cannotMigrate(database: String, reason: String)
    /// A stored value cannot be read as its attribute's type.
    case corruptValue(entity: String, attribute: String)
    /// A transformable attribute names a transformer that is not registered.
    case missingValueTransformer(name: String, attribute: String)
    /// The store is open for reading only.
    case readOnly(database: String)

    package var description: String {
        switch self {
        case .notAPersistenceStore(let database):
            return "The database \(database) is not a Persistence store: it holds other tables"
        case .incompatibleModel(let database, let differences):
            return "The store in \(database) was written with a different model (\(differences.joined(separator: ", ")))"
        case .cannotMigrate(_, let reason):
            return reason
        case .corruptValue(let entity, let attribute):
            return "A stored value of \(entity).\(attribute) cannot be read as its type"
        case .missingValueTransformer(let name, let attribute):
            return "No value transformer named \(name) is registered (for \(attribute))"
        case .readOnly(let database):
            return "The store in \(database) is open for reading only"
        }
    }
}

extension PostgreSQLStoreError: PersistentStoreFailure {
    package var failureKind: PersistentStoreFailureKind {
        switch self {
        case .notAPersistenceStore: return .notAStore
        case .incompatibleModel, .cannotMigrate: return .incompatibleModel
        case .corruptValue: return .damaged
        case .missingValueTransformer: return .other
        case .readOnly: return .readOnly
        }
    }
    package var path: String? { nil }
    package var message: String { description }
}

extension PostgreSQLError: PersistentStoreFailure {
    package var failureKind: PersistentStoreFailureKind {
        if isConnectionLost { return .unavailable }
        switch sqlState {
        case "25006": return .readOnly
        case "53100": return .diskFull
        case "55P03", "57014", "40001", "40P01": return .busy
        default: return .other
        }
    }
    package var path: String? { nil }
}
#endif
