/// A model file that cannot be found, read or written.
///
/// Problems with what a file says are `ModelError`s; this error is about the file itself.
public struct ModelFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The path does not exist.
        case notFound
        /// The bundle exists but has no version of the requested name.
        case noSuchVersion
        /// The path exists but cannot be read as a model file.
        case unreadable
        /// The model cannot be written to the path.
        case unwritable
    }

    /// What went wrong.
    public var kind: Kind
    /// The file or directory concerned.
    public var path: String
    /// Why, as a sentence fragment.
    public var reason: String

    /// Creates a model file error.
    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    /// "Can't read the model at X: reason." and the like.
    public var description: String {
        switch kind {
        case .notFound: return "There is no model at \(path): \(reason)."
        case .noSuchVersion: return "Can't read the model bundle \(path): \(reason)."
        case .unreadable: return "Can't read the model at \(path): \(reason)."
        case .unwritable: return "Can't write the model to \(path): \(reason)."
        }
    }
}
