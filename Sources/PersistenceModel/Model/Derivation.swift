/// A derived attribute's expression, parsed: how its value is computed during save.
///
/// Supported forms (Core Data's, as Xcode writes them in `derivationExpression`):
/// `canonical:(title)`, `lowercase:(title)`, `uppercase:(title)`, `now()`, a key path
/// through to-one relationships (`author.name`), `books.@count`, and `books.@sum.price`.
public enum Derivation: Sendable, Hashable, CustomStringConvertible {
    /// The canonical form of a string attribute: case and diacritics folded, for search.
    case canonical(String)
    /// A string attribute, lowercased.
    case lowercase(String)
    /// A string attribute, uppercased.
    case uppercase(String)
    /// The time of the save.
    case now
    /// A value reached through to-one relationships, such as `author.name`.
    case keyPath([String])
    /// The number of objects in a to-many relationship.
    case count(relationship: String)
    /// The sum of an attribute over a to-many relationship's objects.
    case sum(relationship: String, attribute: String)

    /// Parses a derivation expression.
    ///
    /// - Throws: `DerivationSyntaxError` naming the expression and what was expected.
    public init(parsing expression: String) throws(DerivationSyntaxError) {
        let text = expression.trimmingCharacters(in: .whitespaces)
        for (prefix, make) in [
            ("canonical:", Derivation.canonical), ("lowercase:", Derivation.lowercase),
            ("uppercase:", Derivation.uppercase),
        ] as [(String, (String) -> Derivation)] where text.hasPrefix(prefix) {
            let rest = text.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
            guard rest.hasPrefix("("), rest.hasSuffix(")") else {
                throw DerivationSyntaxError(expression: expression, expected: "(key) after \(prefix)")
            }
            let key = rest.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
            guard Self.isIdentifier(key) else {
                throw DerivationSyntaxError(expression: expression, expected: "a property name in (…)")
            }
            self = make(key)
            return
        }
        if text == "now()" {
            self = .now
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2, parts[1] == "@count", Self.isIdentifier(parts[0]) {
            self = .count(relationship: parts[0])
        } else if parts.count == 3, parts[1] == "@sum", Self.isIdentifier(parts[0]),
            Self.isIdentifier(parts[2])
        {
            self = .sum(relationship: parts[0], attribute: parts[2])
        } else if !parts.isEmpty, parts.allSatisfy(Self.isIdentifier) {
            self = .keyPath(parts)
        } else {
            throw DerivationSyntaxError(
                expression: expression,
                expected: "canonical:(key), lowercase:(key), uppercase:(key), now(), a key path, "
                    + "key.@count or key.@sum.key")
        }
    }

    /// The property names the derivation reads from its own entity (the first key of each
    /// key path).
    public var sourceKeys: [String] {
        switch self {
        case .canonical(let k), .lowercase(let k), .uppercase(let k): return [k]
        case .now: return []
        case .keyPath(let path): return [path[0]]
        case .count(let r), .sum(let r, _): return [r]
        }
    }

    /// The expression as Xcode writes it.
    public var description: String {
        switch self {
        case .canonical(let k): return "canonical:(\(k))"
        case .lowercase(let k): return "lowercase:(\(k))"
        case .uppercase(let k): return "uppercase:(\(k))"
        case .now: return "now()"
        case .keyPath(let path): return path.joined(separator: ".")
        case .count(let r): return "\(r).@count"
        case .sum(let r, let a): return "\(r).@sum.\(a)"
        }
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic
        else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

/// A derivation expression that does not parse.
public struct DerivationSyntaxError: Error, Sendable, CustomStringConvertible {
    /// The expression as written.
    public var expression: String
    /// What the parser expected.
    public var expected: String

    /// "Can't parse derivation 'x': expected …".
    public var description: String { "can't parse derivation '\(expression)': expected \(expected)" }
}
