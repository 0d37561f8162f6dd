/// A JSON value whose objects keep their members in the order written and whose numbers
/// keep their literal text, so that nothing is lost between reading and writing.
///
/// Numbers are kept as text because JSON's numbers are arbitrary-precision decimals: an
/// Integer 64 above 2⁵³ or a Decimal with 38 digits must not pass through `Double`. The
/// reader (`parse(_:)`) checks the grammar of RFC 8259 strictly; `rendered(indent:)` writes
/// pretty text with two-space indentation. Used by `persistence-tool` and `StoreArchive`.
package indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// A number, as its literal text (`-12`, `3.5e-7`), which the grammar has checked.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// An object's members in the order written; a key may repeat (readers decide).
    case object([(String, JSONValue)])

    /// A string, or null for `nil`.
    package static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    /// An integer number.
    package static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// The kind of value, for messages: "null", "a Boolean", "a number", "a string",
    /// "an array" or "an object".
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as it reads in a message: a string quoted, a number as written, and the
    /// kind for arrays and objects; a long string or number cut to
    /// ``QuotedText/excerptLength`` characters, so that a message stays one short line.
    package var shortDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return QuotedText.excerpt(text)
        case .string(let text): return QuotedText.doubleQuotedExcerpt(text)
        case .array, .object: return kindDescription
        }
    }

    // MARK: - Writing

    /// The value as JSON text, indented by two spaces per level.
    package func rendered(indent: Int = 0) -> String {
        var text = ""
        render(into: &text, indent: indent)
        return text
    }

    private func render(into text: inout String, indent: Int) {
        switch self {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let literal): text += literal
        case .string(let string): text += Self.quoted(string)
        case .array(let items):
            guard !items.isEmpty else {
                text += "[]"
                return
            }
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += String(repeating: "  ", count: indent + 1)
                item.render(into: &text, indent: indent + 1)
                text += index == items.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else {
                text += "{}"
                return
            }
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += String(repeating: "  ", count: indent + 1)
                text += Self.quoted(member.0) + ": "
                member.1.render(into: &text, indent: indent + 1)
                text += index == members.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: "  ", count: indent) + "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    package static func quoted(_ text: String) -> String {
        // Most strings need no escape: skip the scalar-by-scalar copy for them.
        let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0x7F }
        return plain ? "\"" + text + "\"" : QuotedText.doubleQuoted(text)
    }
}
