import PersistenceStore

extension StoreError: PersistentStoreFailure {
    /// What kind of store failure the error is, in the terms every store shares.
    public var failureKind: PersistentStoreFailureKind {
        switch self {
        case .notAPersistenceStore: return .notAStore
        case .incompatibleModel: return .incompatibleModel
        case .corruptValue, .unreadableExternalData, .unplacedRow: return .damaged
        default: return .other
        }
    }

    /// The store file (or external data file) the error is about, when it names one.
    public var path: String? {
        switch self {
        case .notAPersistenceStore(let path), .incompatibleModel(let path, _), .missingDirectory(let path),
            .isADirectory(let path), .noStore(let path), .notARegularFile(let path, _), .externalData(let path, _),
            .unreadableExternalData(_, _, let path, _):
            return path
        case .missingValueTransformer, .corruptValue, .unplacedRow:
            return nil
        }
    }

    /// The sentence that describes the error.
    public var message: String { description }
}
