/// Splits a predicate format string into tokens.
///
/// Positions are 0-based offsets in `Character`s (grapheme clusters), the unit a user sees
/// and the one ``FetchPredicateError/position`` reports. The lexer never substitutes arguments:
/// `%@` inside quotes is literal text, which is what keeps argument values out of the syntax.
struct PredicateLexer {
    /// A token's kind and payload.
    enum Kind: Equatable {
        /// A key (`title`), or a `#`-escaped key (`#IN`, `escaped` true).
        case identifier(String, escaped: Bool)
        /// A reserved word, upper-cased (`AND`, `BEGINSWITH`, `NIL`).
        case keyword(String)
        /// A quoted string with escapes resolved.
        case string(String)
        /// A number's text as written (`-12`, `19.99`, `1e-3`); `isInteger` when it has no
        /// point and no exponent.
        case number(String, isInteger: Bool)
        /// `%@`, `%K`, `%d`, `%f`… as written.
        case specifier(String)
        /// `$name`.
        case variable(String)
        /// `@count`, `@sum`…, as written after the `@`.
        case collectionOperator(String)
        /// A comparison operator, normalized.
        case comparison(PredicateNode.Operator)
        /// `!`, the symbolic `NOT` (`&&` and `||` become `.keyword("AND")` and `.keyword("OR")`).
        case bang
        /// `(`, `)`, `{`, `}`, `,`, `.`.
        case punctuation(Character)
        /// `[cd]`: the letters between the brackets.
        case modifier(String)
        /// The end of the format.
        case end
    }

    /// A token with where it starts and how it was written.
    struct Token {
        let kind: Kind
        let position: Int
        let text: String
    }

    /// Every reserved word, upper-cased. A key spelled like one must be escaped with `#`.
    static let keywords: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE",
        "MATCHES", "ANY", "SOME", "ALL", "NONE", "NIL", "NULL", "TRUE", "YES", "FALSE", "NO",
        "SELF", "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    /// Whether `word` is reserved (case-insensitively).
    static func isKeyword(_ word: String) -> Bool { keywords.contains(word.uppercased()) }

    private let characters: [Character]
    private let format: String
    private var index = 0

    /// Creates a lexer over `format`.
    init(_ format: String) {
        self.format = format
        self.characters = Array(format)
    }

    /// All tokens, ending with `.end`.
    ///
    /// - Throws: ``FetchPredicateError`` (`.syntax`) for an unterminated string or modifier, an
    ///   unknown operator or character, a malformed number, or an unknown `%` specifier.
    mutating func tokenize() throws -> [Token] {
        var tokens: [Token] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    // MARK: - Internals

    private func peek(_ offset: Int = 0) -> Character? {
        let i = index + offset
        return i < characters.count ? characters[i] : nil
    }

    private func error(_ message: String, at position: Int) -> FetchPredicateError {
        FetchPredicateError(kind: .syntax, format: format, position: position, message: message)
    }

    private func text(from start: Int) -> String { String(characters[start..<index]) }

    static func isIdentifierStart(_ c: Character) -> Bool { c.isLetter || c == "_" }
    static func isIdentifierPart(_ c: Character) -> Bool {
        c.isLetter || c == "_" || isDigit(c) || c.isNumber
    }
    static func isDigit(_ c: Character) -> Bool {
        guard let ascii = c.asciiValue else { return false }
        return (48...57).contains(ascii)
    }

    private mutating func next() throws -> Token {
        while let c = peek(), c.isWhitespace { index += 1 }
        let start = index
        guard let c = peek() else { return Token(kind: .end, position: start, text: "") }
        func token(_ kind: Kind, length: Int) -> Token {
            index += length
            return Token(kind: kind, position: start, text: text(from: start))
        }
        switch c {
        case "\"", "'": return try string(quote: c)
        case "-" where peek(1).map(Self.isDigit) == true: return try number()
        case _ where Self.isDigit(c): return try number()
        case _ where Self.isIdentifierStart(c):
            let word = identifier()
            let upper = word.uppercased()
            if Self.keywords.contains(upper) {
                return Token(kind: .keyword(upper), position: start, text: word)
            }
            return Token(kind: .identifier(word, escaped: false), position: start, text: word)
        case "#":
            index += 1
            guard let first = peek(), Self.isIdentifierStart(first) else {
                throw error("expected a key after '#'", at: start)
            }
            let word = identifier()
            return Token(kind: .identifier(word, escaped: true), position: start, text: "#" + word)
        case "$":
            index += 1
            guard let first = peek(), Self.isIdentifierStart(first) else {
                throw error("expected a variable name after '$'", at: start)
            }
            let word = identifier()
            return Token(kind: .variable(word), position: start, text: "$" + word)
        case "@":
            index += 1
            guard let first = peek(), Self.isIdentifierStart(first) else {
                throw error("expected a collection operator such as @count after '@'", at: start)
            }
            let word = identifier()
            return Token(kind: .collectionOperator(word), position: start, text: "@" + word)
        case "%": return try specifier()
        case "=":
            switch peek(1) {
            case "=": return token(.comparison(.equalTo), length: 2)
            case "<": return token(.comparison(.lessThanOrEqualTo), length: 2)
            case ">": return token(.comparison(.greaterThanOrEqualTo), length: 2)
            default: return token(.comparison(.equalTo), length: 1)
            }
        case "!":
            if peek(1) == "=" { return token(.comparison(.notEqualTo), length: 2) }
            return token(.bang, length: 1)
        case "<":
            switch peek(1) {
            case "=": return token(.comparison(.lessThanOrEqualTo), length: 2)
            case ">": return token(.comparison(.notEqualTo), length: 2)
            default: return token(.comparison(.lessThan), length: 1)
            }
        case ">":
            if peek(1) == "=" { return token(.comparison(.greaterThanOrEqualTo), length: 2) }
            return token(.comparison(.greaterThan), length: 1)
        case "&":
            guard peek(1) == "&" else {
                throw error("unknown operator '&'; use '&&' or AND", at: start)
            }
            return token(.keyword("AND"), length: 2)
        case "|":
            guard peek(1) == "|" else {
                throw error("unknown operator '|'; use '||' or OR", at: start)
            }
            return token(.keyword("OR"), length: 2)
        case "(", ")", "{", "}", ",", ".": return token(.punctuation(c), length: 1)
        case "[": return try modifier()
        default:
            if "+-*/^:;?`~\\]".contains(c) {
                throw error("unknown operator '\(c)'", at: start)
            }
            throw error("unexpected character '\(c)'", at: start)
        }
    }

    private mutating func identifier() -> String {
        let start = index
        while let c = peek(), Self.isIdentifierPart(c) { index += 1 }
        return text(from: start)
    }

    private mutating func number() throws -> Token {
        let start = index
        if peek() == "-" { index += 1 }
        var isInteger = true
        while let c = peek(), Self.isDigit(c) { index += 1 }
        if peek() == ".", let after = peek(1), Self.isDigit(after) {
            isInteger = false
            index += 1
            while let c = peek(), Self.isDigit(c) { index += 1 }
        }
        if peek() == "e" || peek() == "E" {
            var offset = 1
            if peek(1) == "+" || peek(1) == "-" { offset = 2 }
            if let digit = peek(offset), Self.isDigit(digit) {
                isInteger = false
                index += offset
                while let c = peek(), Self.isDigit(c) { index += 1 }
            }
        }
        if let c = peek(), Self.isIdentifierPart(c) {
            while let c = peek(), Self.isIdentifierPart(c) || c == "." { index += 1 }
            throw error("malformed number '\(QuotedText.excerpt(text(from: start)))'", at: start)
        }
        return Token(
            kind: .number(text(from: start), isInteger: isInteger),
            position: start, text: text(from: start))
    }

    private mutating func string(quote: Character) throws -> Token {
        let start = index
        index += 1
        var value = String.UnicodeScalarView()
        while true {
            guard let c = peek() else {
                throw error(
                    "unterminated string: the \(quote) here is never closed",
                    at: start)
            }
            index += 1
            if c == quote { break }
            guard c == "\\" else {
                value.append(contentsOf: c.unicodeScalars)
                continue
            }
            guard let escaped = peek() else { continue }  // reported as unterminated above
            index += 1
            switch escaped {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "0": value.append("\0")
            case "\"", "'", "\\": value.append(contentsOf: escaped.unicodeScalars)
            case "u": value.append(try unicodeEscape(at: index - 2))
            default:
                // Unknown escapes keep their backslash, so LIKE (`\*`) and MATCHES (`\d`)
                // patterns can be written with a single backslash.
                value.append("\\")
                value.append(contentsOf: escaped.unicodeScalars)
            }
        }
        return Token(kind: .string(String(value)), position: start, text: text(from: start))
    }

    /// Reads the four hex digits after `\u` (and a low surrogate's `\uXXXX` after a high one).
    private mutating func unicodeEscape(at start: Int) throws -> Unicode.Scalar {
        func hex4() throws -> UInt32 {
            guard index + 4 <= characters.count,
                let value = UInt32(String(characters[index..<index + 4]), radix: 16),
                characters[index..<index + 4].allSatisfy(\.isHexDigit)
            else {
                throw error("expected four hex digits after \\u", at: start)
            }
            index += 4
            return value
        }
        let first = try hex4()
        if (0xD800...0xDBFF).contains(first) {
            guard peek() == "\\", peek(1) == "u" else {
                throw error("\\u escape is a lone high surrogate", at: start)
            }
            index += 2
            let second = try hex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw error("\\u escape is a lone high surrogate", at: start)
            }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            if let scalar = Unicode.Scalar(combined) { return scalar }
        }
        guard let scalar = Unicode.Scalar(first) else {
            throw error("\\u escape is a lone surrogate", at: start)
        }
        return scalar
    }

    private mutating func specifier() throws -> Token {
        let start = index
        index += 1
        // Longest first, so that `%lld` is not read as `%l` + "ld".
        let candidates = [
            "lld", "lli", "llu", "ld", "li", "lu", "lf", "@", "K", "d", "i", "u", "f",
        ]
        for spec in candidates where matches(spec) {
            index += spec.count
            return Token(kind: .specifier(spec), position: start, text: "%" + spec)
        }
        let shown = peek().map { String($0) } ?? ""
        throw error("unknown format specifier '%\(shown)'; use %@, %K, %d or %f", at: start)
    }

    private func matches(_ word: String) -> Bool {
        for (offset, c) in word.enumerated() where peek(offset) != c { return false }
        return true
    }

    private mutating func modifier() throws -> Token {
        let start = index
        index += 1
        while let c = peek(), c != "]" {
            guard c.isLetter else {
                throw error(
                    "unterminated modifier: expected ']' after '\(text(from: start))'",
                    at: start)
            }
            index += 1
        }
        guard peek() == "]" else {
            throw error(
                "unterminated modifier: expected ']' after '\(text(from: start))'",
                at: start)
        }
        index += 1
        let letters = String(characters[(start + 1)..<(index - 1)])
        return Token(kind: .modifier(letters), position: start, text: text(from: start))
    }
}
