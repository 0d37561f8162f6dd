import Foundation

// The normalized format: what `description` prints re-parses to the identical tree.

extension PredicateNode: CustomStringConvertible {
    /// The normalized format string: keywords in capitals, `==`/`!=` spelled one way,
    /// strings double-quoted, keys that collide with keywords escaped with `#`.
    ///
    /// Any tree the parser produces re-parses from its description to an equal tree. Trees
    /// built by hand with an empty or one-child ``and(_:)``/``or(_:)`` print as
    /// `TRUEPREDICATE`/`FALSEPREDICATE` or as the child: equivalent, not identical.
    public var description: String {
        switch self {
        case .truePredicate: return "TRUEPREDICATE"
        case .falsePredicate: return "FALSEPREDICATE"
        case .and(let children):
            if children.isEmpty { return "TRUEPREDICATE" }
            if children.count == 1 { return children[0].description }
            return children.map(\.parenthesizedInCompound).joined(separator: " AND ")
        case .or(let children):
            if children.isEmpty { return "FALSEPREDICATE" }
            if children.count == 1 { return children[0].description }
            return children.map(\.parenthesizedInCompound).joined(separator: " OR ")
        case .not(let child):
            return "NOT " + child.parenthesizedInCompound
        case .comparison(let comparison):
            return comparison.description
        }
    }

    /// The description, in parentheses when this node is itself an `AND` or `OR`.
    private var parenthesizedInCompound: String {
        switch self {
        case .and(let children) where children.count > 1: return "(\(description))"
        case .or(let children) where children.count > 1: return "(\(description))"
        default: return description
        }
    }
}

extension PredicateNode.Comparison: CustomStringConvertible {
    /// The comparison in normalized format, e.g. `ANY books.title BEGINSWITH[cd] "a"`.
    public var description: String {
        var text = ""
        if let quantifier { text += quantifier.rawValue + " " }
        text += left.description + " " + self.operator.rawValue
        if options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive) {
            text += "["
            if options.contains(.caseInsensitive) { text += "c" }
            if options.contains(.diacriticInsensitive) { text += "d" }
            text += "]"
        }
        return text + " " + right.description
    }
}

extension PredicateNode.Operand: CustomStringConvertible {
    /// The operand in normalized format: `author.name`, `$TITLE`, `{1, 2}`,
    /// `books.@sum.price`, `"text"`.
    public var description: String {
        switch self {
        case .constant(let literal): return literal.description
        case .keyPath(let components): return Self.format(keyPath: components)
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .aggregate(let items):
            return "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .collectionFunction(let function, let collection, let key):
            var text = Self.format(keyPath: collection) + "." + function.rawValue
            if !key.isEmpty { text += "." + Self.format(keyPath: key) }
            return text
        }
    }

    /// Joins key components with dots, escaping keyword-like components with `#`; an
    /// empty path is `SELF`.
    static func format(keyPath components: [String]) -> String {
        if components.isEmpty { return "SELF" }
        return components.map { component in
            PredicateLexer.isKeyword(component) ? "#" + component : component
        }.joined(separator: ".")
    }
}

extension PredicateLiteral: CustomStringConvertible {
    /// The literal in format syntax: `nil`, `TRUE`, `42`, `19.99`, `"text"`, or a `CAST`
    /// for types without a literal form (`CAST(726969600.0, "NSDate")`,
    /// `CAST("1.5", "Double")`, `CAST("…", "UUID")`, `CAST("…", "URL")`,
    /// `CAST("<base64>", "Data")`).
    public var description: String {
        switch self {
        case .null: return "nil"
        case .bool(let value): return value ? "TRUE" : "FALSE"
        case .integer(let value): return String(value)
        case .decimal(let value):
            let text = value.description
            // A decimal always shows a point so that it re-parses as a decimal, not an
            // integer.
            if value.isNaN { return "CAST(\"NaN\", \"NSDecimalNumber\")" }
            if text.contains(".") || text.contains("e") || text.contains("E") { return text }
            return text + ".0"
        case .double(let value): return "CAST(\(Self.quoted(String(value))), \"Double\")"
        case .string(let value): return Self.quoted(value)
        case .date(let value): return "CAST(\(value.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .uuid(let value): return "CAST(\(Self.quoted(value.uuidString)), \"UUID\")"
        case .url(let value): return "CAST(\(Self.quoted(value.absoluteString)), \"URL\")"
        case .data(let value):
            return "CAST(\(Self.quoted(value.base64EncodedString())), \"Data\")"
        }
    }

    /// `text` in double quotes, escaped: see `QuotedText.doubleQuoted(_:)`.
    static func quoted(_ text: String) -> String { QuotedText.doubleQuoted(text) }
}
