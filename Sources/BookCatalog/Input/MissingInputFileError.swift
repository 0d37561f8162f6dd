import Persistence

/// An input file that `books` needs but cannot read: missing, a directory, or unreadable.
///
/// The command line reports it on one line and exits 66 (`EX_NOINPUT`); nothing is written.
public struct MissingInputFileError: Error, Sendable, CustomStringConvertible {
    /// The file's path as given (`-` for standard input).
    public var path: String
    /// Why it cannot be read, such as `it does not exist`.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "The seed file '/tmp/x.json' cannot be used: it does not exist.", or for `-`
    /// "Standard input cannot be used as a seed file: it is a directory."
    public var description: String {
        if path == "-" { return "Standard input cannot be used as a seed file: \(reason)." }
        return "The seed file '\(QuotedText.forMessage(path))' cannot be used: \(reason)."
    }
}
