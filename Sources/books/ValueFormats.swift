import BookCatalog
import CommandLineSupport
import Persistence

/// The checks behind `books`' value kinds: each returns the normalised text or the reason
/// the value is refused, which completes "The value 'x' is invalid for '--opt <v>': …".
///
/// These check form only; whether a book exists or a predicate names real keys is for the
/// catalogue to say.
enum ValueFormats {
    /// Any text with at least one character that is not white space; kept as typed.
    @Sendable static func nonBlank(_ text: String) -> Result<String, ValueRejection> {
        text.contains { !$0.isWhitespace } ? .success(text) : .failure(.init("must not be blank"))
    }

    /// A book's ID: its UUID or a prefix of it (see `BookIDPrefix`), normalised to
    /// uppercase digits without hyphens.
    @Sendable static func bookID(_ text: String) -> Result<String, ValueRejection> {
        guard let prefix = BookIDPrefix(text) else {
            return .failure(.init("must be a book's ID: 4 to 32 hexadecimal digits of its UUID (hyphens allowed)"))
        }
        return .success(prefix.digits)
    }

    /// A date as `--since` and `--until` take it: a year, a month, a day or an ISO 8601
    /// date and time (see `DateText.parseTypedDate`).
    @Sendable static func typedDate(_ text: String) -> Result<String, ValueRejection> {
        do {
            _ = try DateText.parseTypedDate(text, timeZone: Catalog.calendarTimeZone)
            return .success(text)
        } catch {
            return .failure(.init(String(describing: error)))
        }
    }

    /// A `--fields` list: known names separated by commas, normalised to the fields' own names.
    @Sendable static func fieldList(_ text: String) -> Result<String, ValueRejection> {
        switch BookField.parseList(text) {
        case .success(let fields): .success(fields.map(\.rawValue).joined(separator: ","))
        case .failure(let error): .failure(.init(error.description))
        }
    }

    /// A store path: any non-empty text that does not end with `/`. A trailing slash says
    /// "a directory", and the file URL would silently drop it and make `x.sqlite/` the file
    /// `x.sqlite`; a directory can never be the store, so it is refused here.
    @Sendable static func storePath(_ text: String) -> Result<String, ValueRejection> {
        if text.isEmpty { return .failure(.init("must be a file path")) }
        if text.hasSuffix("/") { return .failure(.init("names a directory; give the store file's path")) }
        return .success(text)
    }
}
