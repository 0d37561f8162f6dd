import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceSQLite
import PersistenceStore

// Long `IN {…}` lists and long AND/OR chains.
//
// SQLite refuses an expression nested more than 1,000 levels deep, and it nests a flat
// `a OR b OR c …` one level per term: a list of a thousand values failed with "Expression
// tree is too large". So a chain is grouped into a balanced tree (`SQLChain`, as deep as the
// logarithm of its length), and a long list of constants is bound as one JSON array and read back through
// `json_each`, which also keeps it far from SQLite's limit on bound values.

extension PredicateSQLCompiler {
    /// Lists longer than this are bound as one JSON array, as the relational core binds them.
    static let longListThreshold = RelationalFetchCompiler.longList

    /// `target IN {items}`: constants that compare by plain equality are bound as one JSON
    /// array per form of the test (a Decimal column compares with the `DECIMAL` collation,
    /// so `price IN {1.50}` matches a stored `1.5`); any other item keeps its own test.
    mutating func membership(
        _ target: Target, _ options: PredicateNode.Options, _ items: [PredicateNode.Operand]
    ) throws -> String {
        var groups: [(lhs: String, suffix: String, values: [String])] = []
        var groupIndex: [String: Int] = [:]
        var others: [PredicateNode.Operand] = []
        for item in items {
            if case .constant(let literal) = item, let form = try equalityForm(target, options, literal),
                let json = Self.jsonText(form.value)
            {
                let key = form.lhs + "\u{0}" + form.suffix
                if let index = groupIndex[key] {
                    groups[index].values.append(json)
                } else {
                    groupIndex[key] = groups.count
                    groups.append((form.lhs, form.suffix, [json]))
                }
            } else {
                others.append(item)
            }
        }
        var parts: [String] = []
        for group in groups {
            let list = bind(.text("[" + group.values.joined(separator: ",") + "]"))
            let member = "\(group.lhs)\(group.suffix) IN (SELECT value FROM json_each(\(list)))"
            parts.append(negated ? "coalesce(\(member), 0)" : "(\(member))")
        }
        // Compiled after the lists, so that their values are bound in the order of the SQL.
        for item in others { parts.append(try compare(target, .equalTo, options, item)) }
        return parts.isEmpty ? "0" : SQLChain.joined(parts, by: "OR")
    }

    /// How `target == literal` compiles when it is a plain equality (`lhs = ?` with an
    /// optional collation), mirroring the equality cases of `ordered`; nil for the cases
    /// that need their own SQL (NULL, NaN, infinities, a Double column against a Decimal,
    /// Binary Data) or that do not type-check (which then fail as a single test would).
    private func equalityForm(
        _ target: Target, _ options: PredicateNode.Options, _ literal: PredicateLiteral
    ) throws -> (lhs: String, value: SQLiteValue, suffix: String)? {
        switch (target.kind, literal) {
        case (.string, .string(let s)):
            return (folded(target.sql, options), .text(PredicateEvaluator.fold(s, options)), "")
        case (.date, .date(let d)): return (target.sql, .real(d.timeIntervalSince1970), "")
        case (.uuid, .uuid(let u)): return (target.sql, .text(u.uuidString), "")
        case (.url, .url(let u)): return (target.sql, .text(u.absoluteString), "")
        case (let kind, _) where kind.isNumeric:
            guard let number = Number(PredicateValue(literal)), !number.doubleValue.isNaN else { return nil }
            switch (kind, number) {
            case (.decimal, .double(let d)):
                guard let text = DecimalText.plainText(of: d) else { return nil }
                return (target.sql, .text(text), " COLLATE DECIMAL")
            case (.double, .decimal): return nil
            case (.double, _), (_, .double):
                let lhs = kind == .double ? doubleColumnValue(target.sql) : target.sql
                return (lhs, .real(number.doubleValue), "")
            case (.decimal, _):
                return (target.sql, .text(DecimalText.format(number.decimalValue)), " COLLATE DECIMAL")
            case (_, .decimal(let d)):
                return ("CAST(\(target.sql) AS TEXT)", .text(DecimalText.format(d)), " COLLATE DECIMAL")
            case (_, .integer(let i)): return (target.sql, .integer(i), "")
            }
        default: return nil
        }
    }

    /// A value as a JSON array element that `json_each` gives back as the same SQLite value
    /// (text as TEXT, an integer as INTEGER, a finite double as REAL); nil for anything else.
    private static func jsonText(_ value: SQLiteValue) -> String? {
        switch value {
        case .text(let text): return JSONValue.quoted(text)
        case .integer(let i): return String(i)
        case .real(let d) where d.isFinite:
            // Swift's shortest round-trip form; "1.0" rather than "1" keeps it REAL.
            let text = "\(d)"
            return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
        default: return nil
        }
    }

    /// A long chain with its `key == constant` terms (in an OR) or `key != constant` terms
    /// (in an AND) gathered into one `key IN {…}` (or `NOT key IN {…}`) per key and options:
    /// the same answer, as `IN` compares each value with `==`, but one bound list instead
    /// of a test per term for SQLite to analyse and run on every row. Short chains are left
    /// as written.
    static func gatheringLists(_ children: [PredicateNode], or: Bool) -> [PredicateNode] {
        guard children.count > longListThreshold else { return children }
        let wanted: PredicateNode.Operator = or ? .equalTo : .notEqualTo
        struct Key: Hashable {
            var keyPath: [String]
            var options: PredicateNode.Options
        }
        var lists: [Key: [PredicateNode.Operand]] = [:]
        var order: [Key] = []
        var rest: [PredicateNode] = []
        for child in children {
            guard case .comparison(let comparison) = child, comparison.quantifier == nil,
                comparison.operator == wanted, case .keyPath(let keyPath) = comparison.left,
                case .constant = comparison.right
            else {
                rest.append(child)
                continue
            }
            let key = Key(keyPath: keyPath, options: comparison.options)
            if lists[key] == nil { order.append(key) }
            lists[key, default: []].append(comparison.right)
        }
        var result: [PredicateNode] = []
        for key in order {
            guard let items = lists[key] else { continue }
            if items.count == 1 {
                let single = PredicateNode.comparison(.init(.keyPath(key.keyPath), wanted, items[0], options: key.options))
                result.append(single)
                continue
            }
            let member = PredicateNode.comparison(.init(.keyPath(key.keyPath), .in, .aggregate(items), options: key.options))
            result.append(or ? member : .not(member))
        }
        return result + rest
    }
}
