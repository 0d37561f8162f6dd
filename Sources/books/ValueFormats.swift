import CommandLineSupport
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

    /// A store path: any non-empty text.
    @Sendable static func storePath(_ text: String) -> Result<String, ValueRejection> {
        text.isEmpty ? .failure(.init("must be a file path")) : .success(text)
    }
}
