import Persistence

/// Input the catalogue refuses: a malformed field of `books add` or of a seed file.
///
/// The command line reports it on one line and exits 65 (bad data); nothing is written.
public struct CatalogInputError: Error, Sendable, CustomStringConvertible {
    /// The field, such as `price` or `books.json entry 12: publishDate`.
    public var field: String
    /// The value as given.
    public var value: String
    /// Why it is refused.
    public var reason: String

    /// Creates an error.
    public init(field: String, value: String, reason: String) {
        self.field = field
        self.value = value
        self.reason = reason
    }

    /// "Invalid price '19,99': …", always one line: control characters in the field, value
    /// and reason are escaped and a long value is cut short.
    public var description: String {
        // Cut by Unicode scalars, not characters: one character can hold millions of
        // combining marks, and the message must stay one short line.
        let scalars = value.unicodeScalars
        let shown = scalars.count > 60 ? String(String.UnicodeScalarView(scalars.prefix(60))) + "…" : value
        return "Invalid \(QuotedText.forMessage(field)) '\(QuotedText.forMessage(shown))': "
            + QuotedText.forMessage(reason)
    }
}
