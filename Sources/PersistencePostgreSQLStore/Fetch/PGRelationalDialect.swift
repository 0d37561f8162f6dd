#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceRelational

/// PostgreSQL's spelling of what the relational core compiles: `$n` placeholders (typed by
/// `PGValue`, so that no value is ever parsed as SQL), `TRUE`/`FALSE` and `coalesce(…, false)`,
/// strings compared and sorted by code point (`COLLATE "C"`), nil first ascending
/// (`NULLS FIRST`; PostgreSQL puts NULL last), long `IN` lists as `= ANY($n)` of one array.
///
/// String operators over text as `PGRowCodec` stores it: U+0000 and U+0001 written as U+0001
/// followed by `0` or `1`, so that every U+0001 of a stored text starts such a pair.
/// Equality, order and `BEGINSWITH` are unchanged by the escape; a match elsewhere must not
/// start inside a pair (`CONTAINS "1984"` must not match the `1` of an escaped U+0001), and
/// `LIKE`'s `?` must take a pair as one character: those compile to regular expressions over
/// the stored text whose literal characters are all written as `\uXXXX` escapes, bound as a
/// parameter like every other value. `MATCHES` is left to memory: ICU's regular expressions
/// are not PostgreSQL's.
struct PGRelationalDialect: RelationalDialect {
    /// The most parameters one statement binds; a term binding more is left to memory.
    static let maximumParameters = 20_000

    /// The longest pattern compiled to a regular expression; a longer one is left to memory.
    static let maximumPatternLength = 1_000

    /// The shortest `IN` list bound as one array.
    static let shortestArrayList = 8

    func placeholder(_ index: Int) -> String { "$\(index)" }
    var alwaysTrue: String { "TRUE" }
    var alwaysFalse: String { "FALSE" }
    func orFalse(_ condition: String) -> String { "coalesce(\(condition), false)" }
    func byCodePoint(_ sql: String) -> String { "\(sql) COLLATE \"C\"" }
    func sortTerm(_ sql: String, ascending: Bool) -> String { sql + (ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST") }
    var maximumBindings: Int { Self.maximumParameters }

    func member(_ lhs: String, of values: [RelationalValue], cast: String?, _ binder: inout RelationalBinder) -> String? {
        guard values.count >= Self.shortestArrayList else { return nil }
        let literal: String
        let arrayType: String
        switch (values[0], cast) {
        case (.integer, nil):
            arrayType = "bigint[]"
            var items: [String] = []
            for case .integer(let i) in values { items.append(String(i)) }
            guard items.count == values.count else { return nil }
            literal = "{" + items.joined(separator: ",") + "}"
        case (.real, nil):
            arrayType = "float8[]"
            var items: [String] = []
            for case .real(let d) in values { items.append(PGValue.double(d).text ?? "NaN") }
            guard items.count == values.count else { return nil }
            literal = "{" + items.joined(separator: ",") + "}"
        case (.text, nil), (.text, "::numeric"), (.text, "::uuid"):
            arrayType = cast == nil ? "text[]" : String(cast?.dropFirst(2) ?? "") + "[]"
            var items: [String] = []
            for case .text(let t) in values { items.append(t) }
            guard items.count == values.count else { return nil }
            literal = Self.arrayLiteral(items)
        default: return nil
        }
        return "coalesce(\(lhs) = ANY(\(binder.bind(.text(literal)))::\(arrayType)), false)"
    }

    /// `values` as an array literal of quoted elements (`{"a","b\"c"}`).
    static func arrayLiteral(_ values: [String]) -> String {
        PGValue.textArray(values).text ?? "{}"
    }

    func stringMatch(
        _ lhs: String, _ op: PredicateNode.Operator, _ text: String, _ options: PredicateNode.Options,
        _ binder: inout RelationalBinder
    ) -> String? {
        let needle = PGRowCodec.escape(PredicateEvaluator.fold(text, options))
        guard needle.unicodeScalars.count <= Self.maximumPatternLength else { return nil }
        let condition: String
        switch op {
        case .beginsWith:
            condition = "starts_with(\(lhs), \(binder.bind(.text(needle))))"
        case .contains where needle.isEmpty, .endsWith where needle.isEmpty:
            condition = "\(lhs) IS NOT NULL"
        case .contains:
            if let first = needle.unicodeScalars.first, first != "0" && first != "1" {
                condition = "strpos(\(lhs), \(binder.bind(.text(needle)))) > 0"
            } else {
                condition = "\(lhs) ~ \(binder.bind(.text(Self.notInsidePair + Self.regexLiteral(needle))))"
            }
        case .endsWith:
            condition = "\(lhs) ~ \(binder.bind(.text(Self.notInsidePair + Self.regexLiteral(needle) + "$")))"
        case .like:
            var pattern = "^"
            for token in PredicateEvaluator.likeTokens(text, options) {
                switch token {
                case .anyRun: pattern += "(?:" + Self.oneCharacter + ")*"
                case .anyOne: pattern += "(?:" + Self.oneCharacter + ")"
                case .scalar(let scalar): pattern += Self.regexLiteral(PGRowCodec.escape(String(scalar)))
                }
            }
            guard pattern.utf8.count <= Self.maximumPatternLength * 12 else { return nil }
            condition = "\(lhs) ~ \(binder.bind(.text(pattern + "$")))"
        default:
            return nil
        }
        return orFalse(condition)
    }

    /// A position that does not split an escape pair: the start, or after any character
    /// other than U+0001.
    static let notInsidePair = #"(?:^|[^\u0001])"#

    /// One character of the unescaped text: an escape pair or any other single character.
    static let oneCharacter = #"\u0001[01]|[^\u0001]"#

    /// `text` as a regular expression (PostgreSQL's ARE) matching exactly itself: ASCII
    /// letters and digits as they are, every other character as a `\uXXXX` or `\UXXXXXXXX`
    /// escape, so that nothing in it is an operator.
    static func regexLiteral(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9": out.unicodeScalars.append(scalar)
            default:
                out += scalar.value <= 0xFFFF
                    ? "\\u" + hex(scalar.value, digits: 4)
                    : "\\U" + hex(scalar.value, digits: 8)
            }
        }
        return out
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
#endif
