import Foundation

// Format arguments: %@, %K, %d, %f.

extension PredicateParser {
    func checkArgumentCount() throws {
        let specifiers = tokens.filter { if case .specifier = $0.kind { true } else { false } }
        let needed = specifiers.count
        let given = arguments.count
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        if needed > given {
            let token = specifiers[given]
            throw FetchPredicateError(
                kind: .argument, format: format, position: token.position,
                message: "missing argument for '\(token.text)': the format has "
                    + "\(plural(needed, "format specifier")) but \(plural(given, "argument")) "
                    + "\(given == 1 ? "was" : "were") given")
        }
        if needed < given {
            throw FetchPredicateError(
                kind: .argument, format: format,
                message: "\(plural(given, "argument")) \(given == 1 ? "was" : "were") given but "
                    + "the format has \(plural(needed, "format specifier"))")
        }
    }

    mutating func argumentOperand(_ spec: String, token: Token) throws -> Operand {
        let number = argumentIndex
        argumentIndex += 1
        let value = arguments[number]
        func failure(_ requirement: String) -> FetchPredicateError {
            FetchPredicateError(
                kind: .argument, format: format, position: token.position,
                message: "argument \(number) for '\(token.text)' \(requirement), not "
                    + PredicateLiteral.typeName(of: value))
        }
        switch spec {
        case "@":
            switch PredicateLiteral.from(argument: value) {
            case .scalar(let literal): return .constant(literal)
            case .array(let literals): return .aggregate(literals.map { .constant($0) })
            case nil:
                throw failure(
                    "must be one of \(PredicateLiteral.acceptedTypes), or an array of "
                        + "these")
            }
        case "K":
            guard let path = PredicateLiteral.unwrapped(value).flatMap({ $0 as? String }) else {
                throw failure("must be a String naming a key path")
            }
            var components: [Component] = []
            for part in path.split(separator: ".", omittingEmptySubsequences: false) {
                let isOperator = part.hasPrefix("@")
                let name = isOperator ? String(part.dropFirst()) : String(part)
                guard let first = name.first, PredicateLexer.isIdentifierStart(first),
                    name.allSatisfy(PredicateLexer.isIdentifierPart)
                else {
                    throw FetchPredicateError(
                        kind: .argument, format: format, position: token.position,
                        message: "argument \(number) for '%K' is not a key path: \"\(path)\"")
                }
                components.append(
                    .init(name: name, isOperator: isOperator, position: token.position))
            }
            let head = try makeKeyPath(components)
            guard current.kind == .punctuation(".") else { return head }
            guard case .keyPath = head else {
                throw error(
                    "a key path ending in a collection operator cannot continue", at: current)
            }
            return try parseKeyPath(startingWith: components)
        case "f", "lf":
            let unwrapped = PredicateLiteral.unwrapped(value)
            if let integer = unwrapped as? any BinaryInteger {
                return .constant(.double(Double(integer)))
            }
            switch PredicateLiteral.from(scalar: unwrapped) {
            case .double(let v): return .constant(.double(v))
            case .decimal(let v): return .constant(.decimal(v))
            default: throw failure("must be a Double or Float")
            }
        default:  // the integer specifiers
            guard PredicateLiteral.unwrapped(value) is any BinaryInteger,
                let literal = PredicateLiteral.from(scalar: value)
            else { throw failure("must be an integer") }
            return .constant(literal)
        }
    }
}
