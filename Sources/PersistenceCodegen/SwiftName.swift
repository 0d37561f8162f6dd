import PersistenceModel

/// Turning model names into Swift names: escaping keywords, capitalising, checking that a
/// property does not hide one of `ManagedObject`'s own members.
enum SwiftName {
    /// Swift's reserved words that need backticks as identifiers.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "as", "false", "is", "nil", "super", "throws", "true",
        "try", "any", "some",
    ]

    /// Names a generated property cannot have: those the model validator reserves for
    /// `ManagedObject`'s members, `ManagedObject`'s package-visible storage (generated code
    /// in this package sees it), and names that mean something else on a type (`Book.Type`).
    static let reserved: Set<String> = ModelValidator.reservedPropertyNames.union([
        "schema", "slots", "committedSlots", "pendingToMany", "extras", "Self", "Type", "Protocol",
    ])

    /// `name` as an identifier: in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `name` with its first letter upper-cased: `books` → `Books`, for `addToBooks`.
    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Why `name` cannot be a generated property's name, or nil when it can.
    static func problem(with name: String) -> String? {
        if reserved.contains(name) {
            return "'\(name)' is already a member of ManagedObject or of every type"
        }
        guard let first = name.unicodeScalars.first,
            first == "_" || first.properties.isAlphabetic,
            name.unicodeScalars.allSatisfy({ $0 == "_" || $0.properties.isAlphabetic
                || ("0"..."9").contains(Character($0)) })
        else {
            return "'\(name)' is not a Swift identifier"
        }
        return nil
    }

    /// A model's name as a type name: letters and digits kept, others dropped, first letter
    /// upper-cased (`Books` → `Books`, `my-model` → `Mymodel`).
    static func typeName(_ name: String) -> String {
        let kept = String(name.unicodeScalars.filter { $0.properties.isAlphabetic
            || ("0"..."9").contains(Character($0)) }.map(Character.init))
        let result = capitalized(kept)
        guard let first = result.first, !first.isNumber else { return "Model" + result }
        return result
    }
}
