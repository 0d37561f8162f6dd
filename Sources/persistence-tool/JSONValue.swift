import Persistence
/// A JSON value whose objects keep their keys in the order given, rendered as pretty text.
indirect enum JSONValue {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// A string, or null for `nil`.
    static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    /// The value as JSON text, indented by two spaces per level.
    func rendered(indent: Int = 0) -> String {
        let inner = String(repeating: "  ", count: indent + 1)
        let outer = String(repeating: "  ", count: indent)
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .string(let text): return Self.quoted(text)
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            let body = items.map { inner + $0.rendered(indent: indent + 1) }
            return "[\n" + body.joined(separator: ",\n") + "\n" + outer + "]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let body = members.map {
                inner + Self.quoted($0.0) + ": " + $0.1.rendered(indent: indent + 1)
            }
            return "{\n" + body.joined(separator: ",\n") + "\n" + outer + "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String { QuotedText.doubleQuoted(text) }
}
