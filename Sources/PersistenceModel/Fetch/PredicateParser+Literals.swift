import Foundation

// Numbers and CAST(…) literals.

extension PredicateParser {
    func numberLiteral(_ text: String, isInteger: Bool, token: Token) throws
        -> PredicateLiteral
    {
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let decimal = PredicateLiteral.exactDecimal(from: text) else {
            throw error(
                "number '\(text)' is out of range or has more than 38 significant "
                    + "digits", at: token)
        }
        return .decimal(decimal)
    }

    mutating func parseCast(at castToken: Token) throws -> PredicateLiteral {
        try enterNesting(at: castToken)
        index += 1  // "("
        let valueToken = current
        switch valueToken.kind {
        case .string, .number: index += 1
        default: throw error("CAST needs a string or number before the type", at: valueToken)
        }
        guard current.kind == .punctuation(",") else {
            throw error("expected ',' and a type name in CAST but found \(found)", at: current)
        }
        index += 1
        guard case .string(let typeName) = current.kind else {
            throw error("expected a quoted type name such as \"NSDate\" in CAST", at: current)
        }
        let typeToken = current
        index += 1
        guard current.kind == .punctuation(")") else {
            throw error("expected ')' to close CAST but found \(found)", at: current)
        }
        index += 1
        depth -= 1
        let string: String? = if case .string(let s) = valueToken.kind { s } else { nil }
        let number: String? = if case .number(let n, _) = valueToken.kind { n } else { nil }
        let literal: PredicateLiteral?
        switch typeName {
        case "NSDate", "Date":
            literal = number.flatMap(Double.init).map {
                .date(Date(timeIntervalSinceReferenceDate: $0))
            }
        case "Double":
            literal = (number ?? string).flatMap(Double.init).map { .double($0) }
        case "NSDecimalNumber", "Decimal":
            literal =
                string == "NaN"
                ? .decimal(.nan)
                : (number ?? string).flatMap(PredicateLiteral.exactDecimal(from:)).map {
                    .decimal($0)
                }
        case "UUID", "NSUUID":
            literal = string.flatMap(UUID.init(uuidString:)).map { .uuid($0) }
        case "URL", "NSURL":
            literal = string.flatMap { URL(string: $0) }.map { .url($0) }
        case "Data", "NSData":
            literal = string.flatMap { Data(base64Encoded: $0) }.map { .data($0) }
        default:
            throw error(
                "unknown CAST type \"\(typeName)\"; use NSDate, Double, NSDecimalNumber, "
                    + "UUID, URL or Data", at: typeToken)
        }
        guard let literal else {
            throw error("CAST cannot make \(typeName) from \(valueToken.text)", at: valueToken)
        }
        return literal
    }
}
