import PersistenceModel

/// Why a store cannot be migrated, naming the store, entity, property and reason.
///
/// Errors of inference (`cannotInfer`, `unknownSourceModel`, `missingValueTransformer`) are
/// thrown before anything is written; errors found in the data while migrating
/// (`constraintViolated`, `tooManyDestinations`, `invalidData`) roll the migration back, so
/// the store stays exactly as it was.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The change between two versions needs a mapping model: lightweight migration
        /// cannot infer it (a type change, a required attribute with no default, …).
        case cannotInfer
        /// None of the given model versions wrote this store.
        case unknownSourceModel
        /// Existing objects violate a uniqueness constraint of the new model.
        case constraintViolated
        /// A to-many becoming to-one, but some objects have more than one destination.
        case tooManyDestinations
        /// The copy of the store made before migrating could not be written.
        case backupFailed
        /// Existing objects hold values the new model cannot take: a nil in an attribute
        /// that becomes required, a derived value that does not fit its attribute, stored
        /// bytes a value transformer cannot decode or encode.
        case invalidData
        /// A transformable attribute changes its value transformer, and the old or the new
        /// transformer is not registered, so the stored values cannot be re-encoded.
        case missingValueTransformer
        /// The store was written with an older version and must be migrated before it can
        /// be opened, but it cannot be written here (read-only media or permissions, or a
        /// read-only open): it is never opened as if it were of the current version.
        case readOnly
    }

    /// What went wrong.
    public let kind: Kind
    /// The store file (or, for a store on a server, its database and schema), when known.
    public var path: String?
    /// The entity concerned, if any.
    public let entity: String?
    /// The property concerned, if any.
    public let property: String?
    /// Why, as a clause (`"its type changes from String to Integer 64"`).
    public let reason: String

    /// Creates an error.
    public init(_ kind: Kind, entity: String? = nil, property: String? = nil, reason: String, path: String? = nil) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.reason = reason
        self.path = path
    }

    /// A sentence naming the store, the entity and property, and the reason.
    public var description: String {
        let store = path.map { "The store \($0)" } ?? "The store"
        var subject = ""
        if let entity { subject = property.map { " (\(entity).\($0))" } ?? " (entity \(entity))" }
        switch kind {
        case .cannotInfer:
            return "\(store) can't be migrated by lightweight migration\(subject): \(reason); "
                + "nothing was changed"
        case .unknownSourceModel:
            return "\(store) can't be migrated: \(reason); nothing was changed"
        case .constraintViolated, .tooManyDestinations, .invalidData:
            return "\(store) can't be migrated\(subject): \(reason); the migration was rolled back "
                + "and the store is as it was"
        case .backupFailed:
            return "\(store) can't be migrated: \(reason); nothing was changed"
        case .missingValueTransformer:
            return "\(store) can't be migrated\(subject): \(reason); nothing was changed"
        case .readOnly:
            return "\(store) \(reason), but it is read-only here; nothing was changed: open it once where it "
                + "can be written, or copy it to a writable folder"
        }
    }
}
