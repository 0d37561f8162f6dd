import Foundation
import PersistenceModel

/// Random fetch requests over `FuzzLibrary`'s model: predicates comparing every attribute
/// type with every operator that type takes (`[c]`, `[d]`, `[cd]` on strings), nil, key paths
/// through the to-one `owner`, `ANY`/`ALL`/`NONE`, `@count` and the other collection
/// operators over the to-manys, nested `AND`/`OR`/`NOT`; sorts of several keys in both
/// directions; limits and offsets; now and then a search of the indexed strings.
///
/// Each request is written as format text with `%@` arguments and parsed, so that a failing
/// case prints as a predicate one can paste into a test.
struct FuzzRequestGenerator {
    /// What a key path holds.
    enum Kind { case integer, double, decimal, string, bool, date, uuid, url, data }

    var random: SeededGenerator
    let decimals: [Decimal]

    /// The attributes of each entity a predicate or sort reads, with their kinds.
    static let attributes: [String: [(String, Kind)]] = [
        "Item": [
            ("i16", .integer), ("i32", .integer), ("i64", .integer), ("dbl", .double), ("flt", .double),
            ("dec", .decimal), ("str", .string), ("alt", .string), ("flag", .bool), ("when", .date),
            ("id", .uuid), ("link", .url), ("bytes", .data), ("owner.name", .string), ("owner.age", .integer),
        ],
        "Person": [("name", .string), ("age", .integer), ("n", .integer)],
        "Tag": [("name", .string), ("weight", .integer)],
    ]

    /// The to-manys of each entity, with their destination.
    static let toManys: [String: [(String, String)]] = [
        "Item": [("tags", "Tag")], "Person": [("items", "Item")], "Tag": [("items", "Item")],
    ]

    /// A random request, its predicate as text with the arguments it was parsed from.
    mutating func request() throws -> (request: FetchRequest, format: String, arguments: [Any?]) {
        let entity = random.pick(["Item", "Item", "Item", "Gadget", "Person"])
        var format = "TRUEPREDICATE"
        var arguments: [Any?] = []
        var hasPredicate = false
        if random.chance(90) {
            (format, arguments) = predicate(entity: entity, depth: 0)
            hasPredicate = true
        }
        let sortable = sortKeys(entity)
        var sorts: [SortKey] = []
        for _ in 0..<random.int(0...3) {
            sorts.append(SortKey(random.pick(sortable), ascending: random.chance(50)))
        }
        var request = FetchRequest(
            entityName: entity, predicate: hasPredicate ? try FetchPredicate(format: format, argumentArray: arguments) : nil,
            sortDescriptors: sorts, fetchLimit: random.chance(40) ? random.int(0...8) : nil)
        request.fetchOffset = random.chance(30) ? random.int(0...6) : 0
        request.includesSubentities = random.chance(80)
        if entity != "Person" && random.chance(15) {
            let words = (0..<random.int(0...2)).map { _ in random.chance(50) ? needle() : stringLiteral() }
            request.searchText = words.joined(separator: " ")
            request.searchKeyPaths = random.pick([[], ["str"], ["alt", "owner.name"]])
        }
        return (request, format, arguments)
    }

    private func sortKeys(_ entity: String) -> [String] {
        switch entity {
        case "Person": return ["name", "age", "n"]
        default:
            let own = Self.attributes["Item"]!.map(\.0) + ["n"]
            return entity == "Gadget" ? own + ["watts"] : own
        }
    }

    // MARK: - Predicates

    private mutating func predicate(entity: String, depth: Int) -> (String, [Any?]) {
        if depth < 3 && random.chance(35) {
            switch random.int(0...2) {
            case 0:
                let (inner, arguments) = predicate(entity: entity, depth: depth + 1)
                return ("NOT (\(inner))", arguments)
            default:
                let joiner = random.chance(50) ? " AND " : " OR "
                var parts: [String] = []
                var arguments: [Any?] = []
                for _ in 0..<random.int(2...3) {
                    let (part, partArguments) = predicate(entity: entity, depth: depth + 1)
                    parts.append("(\(part))")
                    arguments += partArguments
                }
                return (parts.joined(separator: joiner), arguments)
            }
        }
        let root = entity == "Gadget" ? "Item" : entity
        if random.chance(25), let (relationship, destination) = Self.toManys[root].map({ random.pick($0) }) {
            return toMany(relationship, destination)
        }
        var attributes = Self.attributes[root]!
        if entity == "Gadget" { attributes.append(("watts", .double)) }
        if root == "Item" && random.chance(5) {
            return (random.chance(50) ? "owner == nil" : "owner != nil", [])
        }
        let (keyPath, kind) = random.pick(attributes)
        return comparison(keyPath, kind)
    }

    private mutating func toMany(_ relationship: String, _ destination: String) -> (String, [Any?]) {
        let attributes = Self.attributes[destination]!.filter { !$0.0.contains(".") && $0.1 != .data }
        switch random.int(0...3) {
        case 0:
            return ("\(relationship).@count \(random.pick(["==", "!=", "<", ">=", ">"])) %@", [Int64(random.int(0...3))])
        case 1:
            let numeric = attributes.filter { [.integer, .double, .decimal].contains($0.1) }
            let (key, kind) = random.pick(numeric)
            let function = random.pick(["@max", "@min", "@sum", "@avg"])
            // Sums and averages of doubles depend on the order of addition: integers only.
            if kind != .integer && (function == "@sum" || function == "@avg") {
                return ("\(relationship).@count > 0", [])
            }
            let (op, literal) = (random.pick(["==", "<", ">=", "!="]), self.literal(kind))
            return ("\(relationship).\(function).\(key) \(op) %@", [literal])
        default:
            let quantifier = random.pick(["ANY", "ALL", "NONE", "ANY"])
            let (key, kind) = random.pick(attributes)
            let (text, arguments) = comparison("\(relationship).\(key)", kind, allowsNil: false)
            return ("\(quantifier) \(text)", arguments)
        }
    }

    private mutating func comparison(_ keyPath: String, _ kind: Kind, allowsNil: Bool = true) -> (String, [Any?]) {
        if allowsNil && random.chance(10) {
            return ("\(keyPath) \(random.pick(["==", "!="])) nil", [])
        }
        switch kind {
        case .integer, .double, .decimal, .date:
            switch random.int(0...9) {
            case 0: return ("\(keyPath) BETWEEN {%@, %@}", [literal(kind), literal(kind)])
            case 1: return ("\(keyPath) IN %@", [(0..<random.int(1...3)).map { _ in literal(kind) }])
            case 2 where !keyPath.contains("."):
                return ("%@ \(random.pick(["<", "<=", ">", ">=", "==", "!="])) \(keyPath)", [literal(kind)])
            default:
                return ("\(keyPath) \(random.pick(["==", "!=", "<", "<=", ">", ">="])) %@", [literal(kind)])
            }
        case .string:
            let options = random.pick(["", "[c]", "[d]", "[cd]"])
            switch random.int(0...9) {
            case 0: return ("\(keyPath) LIKE\(options) %@", [likePattern()])
            case 1: return ("\(keyPath) MATCHES\(options) %@", [random.pick(Self.regexes)])
            case 2: return ("\(keyPath) IN\(options) %@", [(0..<random.int(1...3)).map { _ in stringLiteral() }])
            case 3: return ("\(keyPath) \(random.pick(["<", "<=", ">", ">="]))\(options) %@", [stringLiteral()])
            case 4, 5:
                return ("\(keyPath) \(random.pick(["BEGINSWITH", "CONTAINS", "ENDSWITH"]))\(options) %@", [needle()])
            default: return ("\(keyPath) \(random.pick(["==", "!="]))\(options) %@", [stringLiteral()])
            }
        case .bool:
            return ("\(keyPath) \(random.pick(["==", "!="])) \(random.pick(["YES", "NO"]))", [])
        case .uuid, .url, .data:
            if random.chance(20) { return ("\(keyPath) IN %@", [[literal(kind), literal(kind)]]) }
            return ("\(keyPath) \(random.pick(["==", "!="])) %@", [literal(kind)])
        }
    }

    /// Valid patterns only: a store refuses an invalid one before reading a row, where the
    /// evaluator refuses it at the first object it reaches (none, when an earlier term of
    /// an AND already failed).
    static let regexes = [
        "a.*", ".*e", "[A-Z].*", "(apple|zebra)", ".*ö.*", ".", "école", ".*[Rr]ing.*", "a%b_c", ".*",
    ]

    private mutating func stringLiteral() -> String { random.pick(FuzzLibrary.strings + FuzzLibrary.names + FuzzLibrary.tagNames) }

    /// Part of a stored string, so that prefixes, infixes and suffixes match.
    private mutating func needle() -> String {
        let characters = Array(stringLiteral())
        guard !characters.isEmpty else { return "" }
        let start = random.int(0...characters.count - 1)
        let end = random.int(start...characters.count)
        return String(characters[start..<end])
    }

    private mutating func likePattern() -> String {
        var pattern = ""
        for character in stringLiteral() {
            switch random.int(0...9) {
            case 0: pattern += "?"
            case 1: pattern += "*"
            default: pattern.append(character)
            }
        }
        return random.chance(30) ? "*" + pattern : pattern
    }

    /// A literal for a key path of `kind`; numbers sometimes of another numeric type.
    private mutating func literal(_ kind: Kind) -> Any {
        switch kind {
        case .integer, .double, .decimal:
            switch random.int(0...5) {
            case 0: return random.pick(FuzzLibrary.int16s + FuzzLibrary.int32s + FuzzLibrary.int64s)
            case 1: return random.pick(FuzzLibrary.doubles.filter { !$0.isNaN })
            case 2: return random.pick(decimals)
            default:
                switch kind {
                case .integer: return random.pick(FuzzLibrary.int16s + FuzzLibrary.int32s + FuzzLibrary.int64s)
                case .double: return random.pick(FuzzLibrary.doubles.filter { !$0.isNaN } + FuzzLibrary.floats)
                default: return random.pick(decimals)
                }
            }
        case .date: return random.pick(FuzzLibrary.dates)
        case .uuid: return random.pick(FuzzLibrary.uuids)
        case .url: return random.pick(FuzzLibrary.urls)
        case .data: return random.pick(FuzzLibrary.datas)
        case .string: return stringLiteral()
        case .bool: return random.chance(50)
        }
    }
}
