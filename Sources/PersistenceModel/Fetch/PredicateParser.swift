import Foundation

/// A recursive-descent parser for Core Data's predicate format language.
///
/// Grammar, lowest precedence first (keywords are case-insensitive):
///
/// ```
/// predicate  := or END
/// or         := and (("OR" | "||") and)*
/// and        := not (("AND" | "&&") not)*
/// not        := ("NOT" | "!")* primary
/// primary    := "(" or ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
/// comparison := ["ANY" | "SOME" | "ALL" | "NONE"] operand operator ["[c]"|"[d]"|"[cd]"] operand
/// operand    := literal | keypath | "SELF" ["." keypath] | "$"name | "%@" | "%K" | "%d" | "%f"
///             | "{" [operand ("," operand)*] "}" | "CAST(" literal "," "type" ")"
/// keypath    := key ("." (key | "@count" | "@sum" | "@avg" | "@min" | "@max"))*
/// ```
///
/// Nesting (parentheses, `NOT`, aggregates) is limited to ``maximumDepth`` so that no input
/// can overflow the stack; every failure is a thrown ``FetchPredicateError``.
struct PredicateParser {
    typealias Token = PredicateLexer.Token
    typealias Operand = PredicateNode.Operand

    /// The deepest nesting of parentheses, `NOT`s and aggregates the parser accepts.
    static let maximumDepth = 200

    let format: String
    let characters: [Character]
    let tokens: [Token]
    let arguments: [Any?]
    var index = 0
    var argumentIndex = 0
    var depth = 0

    /// Parses `format`, substituting `arguments` for its `%` specifiers in order.
    ///
    /// - Throws: ``FetchPredicateError`` with kind `.syntax` or `.argument`.
    static func parse(_ format: String, arguments: [Any?]) throws -> PredicateNode {
        var lexer = PredicateLexer(format)
        var parser = PredicateParser(
            format: format, tokens: try lexer.tokenize(), arguments: arguments)
        return try parser.parsePredicate()
    }

    private init(format: String, tokens: [Token], arguments: [Any?]) {
        self.format = format
        self.characters = Array(format)
        self.tokens = tokens
        self.arguments = arguments
    }

    // MARK: - Predicates

    private mutating func parsePredicate() throws -> PredicateNode {
        try checkArgumentCount()
        let expression = try parseOr()
        switch current.kind {
        case .end: return expression
        case .punctuation(")"):
            throw error("unexpected ')' without a matching '('", at: current)
        default:
            throw error("expected AND, OR or the end of the format but found \(found)", at: current)
        }
    }

    private mutating func parseOr() throws -> PredicateNode {
        var children = [try parseAnd()]
        while current.kind == .keyword("OR") {
            index += 1
            children.append(try parseAnd())
        }
        return children.count == 1 ? children[0] : .or(children)
    }

    private mutating func parseAnd() throws -> PredicateNode {
        var children = [try parseNot()]
        while current.kind == .keyword("AND") {
            index += 1
            children.append(try parseNot())
        }
        return children.count == 1 ? children[0] : .and(children)
    }

    private mutating func parseNot() throws -> PredicateNode {
        let savedDepth = depth
        var negations = 0
        while current.kind == .keyword("NOT") || current.kind == .bang {
            try enterNesting(at: current)
            negations += 1
            index += 1
        }
        var expression = try parsePrimary()
        for _ in 0..<negations { expression = .not(expression) }
        depth = savedDepth
        return expression
    }

    private mutating func parsePrimary() throws -> PredicateNode {
        let token = current
        switch token.kind {
        case .punctuation("("):
            try enterNesting(at: token)
            index += 1
            let inner = try parseOr()
            guard current.kind == .punctuation(")") else {
                let opening = "expected ')' to close the '(' at position \(token.position)"
                if current.kind == .end { throw error(opening, at: current) }
                throw error(opening + " but found \(found)", at: current)
            }
            index += 1
            depth -= 1
            return inner
        case .keyword("TRUEPREDICATE"):
            index += 1
            return .truePredicate
        case .keyword("FALSEPREDICATE"):
            index += 1
            return .falsePredicate
        default:
            return .comparison(try parseComparison())
        }
    }

    private mutating func parseComparison() throws -> PredicateNode.Comparison {
        var quantifier: PredicateNode.Quantifier?
        var expectation: String
        switch current.kind {
        case .keyword("ANY"), .keyword("SOME"): quantifier = .any
        case .keyword("ALL"): quantifier = .all
        case .keyword("NONE"): quantifier = .noElement
        default: break
        }
        if quantifier != nil {
            expectation = "expected a key path after '\(current.text)'"
            index += 1
        } else if index > 0 {
            expectation = "expected a predicate after '\(tokens[index - 1].text)'"
        } else if current.kind == .end {
            expectation = "the format is empty: expected a predicate such as title == \"x\""
        } else {
            expectation = "expected a predicate but found \(found)"
        }
        let leftStart = current.position
        let left = try parseOperand(orElse: expectation)
        let (op, opToken) = try parseOperator(after: leftStart)
        let options = try parseOptions()
        let rightToken = current
        let right = try parseOperand(orElse: "expected a value after '\(opToken.text)'")
        if op == .between {
            switch right {
            case .aggregate(let items) where items.count == 2: break
            case .variable: break
            default:
                throw error("BETWEEN needs a two-element aggregate such as {1, 10}", at: rightToken)
            }
        }
        return .init(left, op, right, options: options, quantifier: quantifier)
    }

    private mutating func parseOperator(after leftStart: Int) throws
        -> (PredicateNode.Operator, Token)
    {
        let token = current
        let op: PredicateNode.Operator?
        switch token.kind {
        case .comparison(let comparison): op = comparison
        case .keyword(let word): op = PredicateNode.Operator(rawValue: word)
        default: op = nil
        }
        guard let op else {
            let end = tokens[index - 1].position + tokens[index - 1].text.count
            let left = String(characters[leftStart..<min(end, characters.count)])
            throw error("expected a comparison operator after '\(QuotedText.excerpt(left))'", at: token)
        }
        index += 1
        return (op, token)
    }

    private mutating func parseOptions() throws -> PredicateNode.Options {
        guard case .modifier(let letters) = current.kind else { return [] }
        var options: PredicateNode.Options = []
        for letter in letters.lowercased() {
            let option: PredicateNode.Options
            switch letter {
            case "c": option = .caseInsensitive
            case "d": option = .diacriticInsensitive
            default: option = []
            }
            guard !option.isEmpty, !options.contains(option) else {
                throw error("unknown modifier '\(current.text)'; use [c], [d] or [cd]", at: current)
            }
            options.insert(option)
        }
        if options.isEmpty {
            throw error("unknown modifier '\(current.text)'; use [c], [d] or [cd]", at: current)
        }
        index += 1
        return options
    }

    // MARK: - Operands

    private mutating func parseOperand(orElse expectation: String) throws -> Operand {
        let token = current
        switch token.kind {
        case .string(let value):
            index += 1
            return .constant(.string(value))
        case .number(let text, let isInteger):
            index += 1
            return .constant(try numberLiteral(text, isInteger: isInteger, token: token))
        case .keyword("NIL"), .keyword("NULL"):
            index += 1
            return .constant(.null)
        case .keyword("TRUE"), .keyword("YES"):
            index += 1
            return .constant(.bool(true))
        case .keyword("FALSE"), .keyword("NO"):
            index += 1
            return .constant(.bool(false))
        case .keyword("SELF"):
            index += 1
            return try parseKeyPath(startingWith: [])
        case .identifier(let name, let escaped):
            index += 1
            if !escaped, name.uppercased() == "CAST", current.kind == .punctuation("(") {
                return .constant(try parseCast(at: token))
            }
            return try parseKeyPath(startingWith: [.init(name: name, token: token)])
        case .variable(let name):
            index += 1
            return .variable(name)
        case .specifier(let spec):
            index += 1
            return try argumentOperand(spec, token: token)
        case .punctuation("{"):
            return try parseAggregate()
        case .modifier:
            throw error("modifier '\(token.text)' must follow a comparison operator", at: token)
        case .collectionOperator:
            throw error(
                "expected a key path before '\(token.text)', as in books.\(token.text)",
                at: token)
        default:
            throw error(expectation, at: token)
        }
    }

    private mutating func parseAggregate() throws -> Operand {
        let opening = current
        try enterNesting(at: opening)
        index += 1
        var items: [Operand] = []
        if current.kind == .punctuation("}") {
            index += 1
            depth -= 1
            return .aggregate(items)
        }
        while true {
            items.append(try parseOperand(orElse: "expected a value in the aggregate"))
            if current.kind == .punctuation(",") {
                index += 1
                continue
            }
            guard current.kind == .punctuation("}") else {
                throw error(
                    "expected ',' or '}' in the aggregate starting at position "
                        + "\(opening.position) but found \(found)", at: current)
            }
            index += 1
            depth -= 1
            return .aggregate(items)
        }
    }

    /// One key-path component as written, for building the operand.
    struct Component {
        let name: String
        let isOperator: Bool
        let position: Int
        init(name: String, token: Token) {
            self.name = name
            self.isOperator = false
            self.position = token.position
        }
        init(name: String, isOperator: Bool, position: Int) {
            self.name = name
            self.isOperator = isOperator
            self.position = position
        }
    }

    /// Reads `.key`, `.#key` and `.@count` continuations after the first component.
    mutating func parseKeyPath(startingWith first: [Component]) throws -> Operand {
        var components = first
        while current.kind == .punctuation(".") {
            index += 1
            let token = current
            switch token.kind {
            case .identifier(let name, _):
                components.append(.init(name: name, token: token))
            case .keyword:
                components.append(.init(name: token.text, token: token))
            case .collectionOperator(let name):
                components.append(.init(name: name, isOperator: true, position: token.position))
            default:
                throw error("expected a key after '.' but found \(found)", at: token)
            }
            index += 1
        }
        return try makeKeyPath(components)
    }

    /// Turns components into a key path, `SELF`, or a collection function.
    func makeKeyPath(_ components: [Component]) throws -> Operand {
        guard let opIndex = components.firstIndex(where: \.isOperator) else {
            return components.isEmpty ? .evaluatedObject : .keyPath(components.map(\.name))
        }
        let op = components[opIndex]
        let position = op.position
        guard let function = PredicateNode.CollectionFunction(rawValue: "@" + op.name.lowercased())
        else {
            throw error(
                "unknown collection operator '@\(op.name)'; use @count, @sum, @avg, "
                    + "@min or @max", at: position)
        }
        let collection = components[..<opIndex].map(\.name)
        let rest = components[(opIndex + 1)...]
        if function == .count {
            guard rest.isEmpty else { throw error("@count must end the key path", at: position) }
            return .collectionFunction(.count, collection: collection, key: [])
        }
        guard !rest.isEmpty, !rest.contains(where: \.isOperator) else {
            throw error(
                "\(function.rawValue) must be followed by a key, as in "
                    + "books.\(function.rawValue).price", at: position)
        }
        return .collectionFunction(function, collection: collection, key: rest.map(\.name))
    }

    // MARK: - Helpers

    var current: Token { tokens[min(index, tokens.count - 1)] }

    /// How the current token is named in an error: `'x'` or `the end of the format`.
    var found: String {
        current.kind == .end ? "the end of the format" : "'\(QuotedText.excerpt(current.text))'"
    }

    mutating func enterNesting(at token: Token) throws {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels", at: token)
        }
    }

    func error(_ message: String, at token: Token) -> FetchPredicateError {
        error(message, at: token.position)
    }

    func error(_ message: String, at position: Int) -> FetchPredicateError {
        FetchPredicateError(kind: .syntax, format: format, position: position, message: message)
    }
}
