#if PostgreSQL
import Foundation
import PersistenceModel

// String operators. A stored string is its text with U+0000 and U+0001 written as U+0001
// followed by `0` or `1` (`PGRowCodec`); every U+0001 of a stored text therefore starts such
// a pair. Equality, order and BEGINSWITH are unchanged by the escape; a match elsewhere must
// not start inside a pair (`CONTAINS "1984"` must not match the `1` of an escaped U+0001),
// and LIKE's `?` must take a pair as one character: those compile to regular expressions over
// the stored text whose literal characters are all written as `\uXXXX` escapes, bound as a
// parameter like every other value.

extension PGPredicateCompiler {
    /// A string column as `[c]`/`[cd]` compare it: the stored `lowercase:(x)` or
    /// `canonical:(x)` copy of `x`, counted only when `x` itself is set; nil when there is
    /// none (or for `[d]` alone), which leaves the comparison to memory.
    struct FoldedColumn {
        var sql: String
        var requirement: String?
    }

    /// The longest pattern compiled to a regular expression; a longer one is left to memory.
    static let maximumPatternLength = 1_000

    mutating func folded(
        _ sql: String, _ attribute: AttributeDescription, _ entity: PGSchema.Entity, _ alias: String,
        _ options: PredicateNode.Options
    ) throws(Unsupported) -> FoldedColumn {
        let wanted: (String) -> Derivation
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (false, false): return FoldedColumn(sql: sql, requirement: nil)
        case (true, true): wanted = Derivation.canonical
        case (true, false): wanted = Derivation.lowercase
        case (false, true): throw Unsupported()
        }
        for (position, property) in entity.schema.properties.enumerated() {
            guard case .attribute(let copy) = property, copy.isStored, !copy.isTransient, copy.type == .string,
                let expression = copy.derivationExpression, let derivation = try? Derivation(parsing: expression),
                derivation == wanted(attribute.name), let column = entity.columnIndex[position]
            else { continue }
            let copySQL = "\(pgIdentifier(alias)).\(pgIdentifier(entity.table.columns[column].name))"
            return FoldedColumn(sql: copySQL, requirement: "\(sql) IS NOT NULL")
        }
        throw Unsupported()
    }

    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS` or `LIKE` of a (folded) string column and a
    /// constant, folded as the options fold it.
    mutating func stringMatch(
        _ target: FoldedColumn, _ op: PredicateNode.Operator, _ options: PredicateNode.Options, _ text: String
    ) throws(Unsupported) -> String {
        let prefix = target.requirement.map { "\($0) AND " } ?? ""
        let column = target.sql
        let needle = PGRowCodec.escape(PredicateEvaluator.fold(text, options))
        guard needle.unicodeScalars.count <= Self.maximumPatternLength else { throw Unsupported() }
        let condition: String
        switch op {
        case .beginsWith:
            condition = "starts_with(\(column), \(bind(.text(needle))))"
        case .contains where needle.isEmpty, .endsWith where needle.isEmpty:
            condition = "\(column) IS NOT NULL"
        case .contains:
            if let first = needle.unicodeScalars.first, first != "0" && first != "1" {
                condition = "strpos(\(column), \(bind(.text(needle)))) > 0"
            } else {
                condition = "\(column) ~ \(bind(.text(Self.notInsidePair + Self.regexLiteral(needle))))"
            }
        case .endsWith:
            condition = "\(column) ~ \(bind(.text(Self.notInsidePair + Self.regexLiteral(needle) + "$")))"
        case .like:
            var pattern = "^"
            for token in PredicateEvaluator.likeTokens(text, options) {
                switch token {
                case .anyRun: pattern += "(?:" + Self.oneCharacter + ")*"
                case .anyOne: pattern += "(?:" + Self.oneCharacter + ")"
                case .scalar(let scalar): pattern += Self.regexLiteral(PGRowCodec.escape(String(scalar)))
                }
            }
            guard pattern.utf8.count <= Self.maximumPatternLength * 12 else { throw Unsupported() }
            condition = "\(column) ~ \(bind(.text(pattern + "$")))"
        default:
            // MATCHES: ICU's syntax and semantics are not PostgreSQL's.
            throw Unsupported()
        }
        return "coalesce(\(prefix)\(condition), false)"
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
