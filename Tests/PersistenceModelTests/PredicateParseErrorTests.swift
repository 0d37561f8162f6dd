import Foundation
import Testing
@testable import Persistence
@testable import PersistenceModel

/// One refused format: its arguments and the exact error text.
struct PredicateParseErrorCase: CustomTestStringConvertible, @unchecked Sendable {
    let format: String
    let arguments: [Any?]
    let kind: FetchPredicateError.Kind
    let position: Int?
    let message: String
    init(
        _ format: String, _ arguments: Any?..., kind: FetchPredicateError.Kind = .syntax,
        at position: Int?, _ message: String
    ) {
        self.format = format
        self.arguments = arguments
        self.kind = kind
        self.position = position
        self.message = message
    }
    var testDescription: String { format }
}

private let parseErrorCases: [PredicateParseErrorCase] = [
    .init("title ==", at: 8, "expected a value after '=='"),
    .init("title == \"abc", at: 9, "unterminated string: the \" here is never closed"),
    .init("a & b", at: 2, "unknown operator '&'; use '&&' or AND"),
    .init("a * 2 == 1", at: 2, "unknown operator '*'"),
    .init("(a == 1", at: 7, "expected ')' to close the '(' at position 0"),
    .init("(a == 1 b", at: 8, "expected ')' to close the '(' at position 0 but found 'b'"),
    .init("a == 1)", at: 6, "unexpected ')' without a matching '('"),
    .init("a ==[x] 1", at: 4, "unknown modifier '[x]'; use [c], [d] or [cd]"),
    .init("a ==[c 1", at: 4, "unterminated modifier: expected ']' after '[c'"),
    .init("[c] a == 1", at: 0, "modifier '[c]' must follow a comparison operator"),
    .init("a BETWEEN {1}", at: 10, "BETWEEN needs a two-element aggregate such as {1, 10}"),
    .init("a BETWEEN 5", at: 10, "BETWEEN needs a two-element aggregate such as {1, 10}"),
    .init(
        "a BETWEEN %@", [1, 2, 3], at: 10, "BETWEEN needs a two-element aggregate such as {1, 10}"),
    .init("", at: 0, "the format is empty: expected a predicate such as title == \"x\""),
    .init("title", at: 5, "expected a comparison operator after 'title'"),
    .init("author.name \"x\"", at: 12, "expected a comparison operator after 'author.name'"),
    .init("a == 1 b", at: 7, "expected AND, OR or the end of the format but found 'b'"),
    .init("a == 1 AND", at: 10, "expected a predicate after 'AND'"),
    .init("ANY == 1", at: 4, "expected a key path after 'ANY'"),
    .init("a == %x", at: 5, "unknown format specifier '%x'; use %@, %K, %d or %f"),
    .init(
        "a.@foo == 1", at: 2,
        "unknown collection operator '@foo'; use @count, @sum, @avg, @min or @max"),
    .init("a.@sum == 1", at: 2, "@sum must be followed by a key, as in books.@sum.price"),
    .init("a == 12abc", at: 5, "malformed number '12abc'"),
    .init("a == \"\\u12\"", at: 6, "expected four hex digits after \\u"),
    .init(
        "a == {1, 2", at: 10,
        "expected ',' or '}' in the aggregate starting at position 5 but found the end of the format"
    ),
    .init(
        "a == CAST(1, \"Foo\")", at: 13,
        "unknown CAST type \"Foo\"; use NSDate, Double, NSDecimalNumber, UUID, URL or Data"),
    .init("a == 1 ∆", at: 7, "unexpected character '∆'"),
    .init("título ==", at: 9, "expected a value after '=='"),
    .init(
        "a == %@ AND b == %@", "x", kind: .argument, at: 17,
        "missing argument for '%@': the format has 2 format specifiers but 1 argument was given"),
    .init(
        "a == %@", "x", "y", kind: .argument, at: nil,
        "2 arguments were given but the format has 1 format specifier"),
    .init(
        "a == %@", Locale(identifier: "en"), kind: .argument, at: 5,
        "argument 0 for '%@' must be one of String, Int (any width), Double, Float, Bool, "
            + "Decimal, Date, UUID, URL, Data, nil, or an array of these, not Locale"),
    .init(
        "a == 1 OR b IN %@", [Locale(identifier: "en")], kind: .argument, at: 15,
        "argument 0 for '%@' must be one of String, Int (any width), Double, Float, Bool, "
            + "Decimal, Date, UUID, URL, Data, nil, or an array of these, not Array<Locale>"),
    .init(
        "%K == 1", 5, kind: .argument, at: 0,
        "argument 0 for '%K' must be a String naming a key path, not Int"),
    .init(
        "%K == 1", "a b", kind: .argument, at: 0, "argument 0 for '%K' is not a key path: \"a b\""),
    .init(
        "a == %d", "7", kind: .argument, at: 5, "argument 0 for '%d' must be an integer, not String"
    ),
    .init(
        "a == %d AND b == %f", 1, true, kind: .argument, at: 17,
        "argument 1 for '%f' must be a Double or Float, not Bool"),
]

@Suite struct PredicateParseErrorTests {
    @Test(arguments: parseErrorCases)
    func refusesWithExactMessage(_ testCase: PredicateParseErrorCase) {
        do {
            let predicate = try FetchPredicate(
                format: testCase.format, argumentArray: testCase.arguments)
            Issue.record("parsed as \(predicate)")
        } catch let error as FetchPredicateError {
            #expect(error.kind == testCase.kind)
            #expect(error.position == testCase.position)
            #expect(error.message == testCase.message)
            #expect(error.format == testCase.format)
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
    }

    @Test func descriptionNamesFormatPositionAndExpectation() {
        #expect(
            throws: FetchPredicateError(
                kind: .syntax, format: "title ==", position: 8,
                message: "expected a value after '=='")
        ) {
            try FetchPredicate("title ==")
        }
        let error = FetchPredicateError(
            kind: .syntax, format: "title ==", position: 8, message: "expected a value after '=='")
        #expect(
            error.description
                == "Unable to parse predicate \"title ==\" at position 8: expected a value after '=='"
        )
        #expect(error.caretLine == "title ==\n        ^")
        #expect(error.diagnostic == error.description + "\n  title ==\n          ^")
    }

    @Test func nestingIsLimitedInsteadOfOverflowingTheStack() throws {
        let limit = PredicateParser.maximumDepth
        let deep =
            String(repeating: "(", count: limit) + "a == 1" + String(repeating: ")", count: limit)
        let parsed = try FetchPredicate(deep)
        #expect(parsed.description == "a == 1")
        let nots = String(repeating: "NOT ", count: limit) + "a == 1"
        #expect(try FetchPredicate(FetchPredicate(nots).description) == (try FetchPredicate(nots)))
        let tooDeep = "(" + deep + ")"
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(tooDeep) }
        let tooManyNots = String(repeating: "!", count: 100_000) + "a == 1"
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(tooManyNots) }
        let braces = "a IN " + String(repeating: "{", count: 100_000)
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(braces) }
        // The deepest trees evaluate, print and compare without exhausting the stack.
        var nested = "title == \"x\""
        for _ in 1..<limit { nested = "(title == \"y\" OR NOT \(nested))" }
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(nested) }
        nested = "title == \"x\""
        for _ in 1..<(limit / 2) { nested = "(title == \"y\" OR NOT \(nested))" }
        let deepTree = try FetchPredicate(nested)
        let book = try #require(PredicateFixture.objects["cien"])
        // Each level negates the one inside it, which starts false.
        #expect(try deepTree.evaluate(with: book) == ((limit / 2 - 1) % 2 == 1))
        #expect(try FetchPredicate(deepTree.description) == deepTree)
        // Long flat chains are not nesting.
        let chain = Array(repeating: "a == 1", count: 5_000).joined(separator: " OR ")
        guard case .or(let children) = try FetchPredicate(chain).expression else {
            Issue.record("expected an OR")
            return
        }
        #expect(children.count == 5_000)
    }

    /// 20,000 inputs from a seeded generator: random predicates from the grammar, half of
    /// them garbled by deleting, inserting, replacing and swapping tokens (including bad
    /// ones). Every input parses (then re-parses from its description to the same tree and
    /// evaluates or throws a FetchPredicateError) or throws a FetchPredicateError. No crash,
    /// no hang: a hang trips the time limit, which is far above the second or so it takes.
    /// Speed is the benchmark's business, not a unit test's.
    @Test(.timeLimit(.minutes(1))) func garbledInputNeverCrashes() throws {
        var generator = PredicateFuzzer(seed: 0x5EED_CAFE)
        let target = try #require(PredicateFixture.objects["cien"])
        var parsed = 0
        var refused = 0
        for _ in 0..<20_000 {
            let (format, arguments) = generator.next()
            do {
                let predicate = try FetchPredicate(format: format, argumentArray: arguments)
                parsed += 1
                #expect(try FetchPredicate(predicate.description) == predicate, "\(format)")
                do { _ = try predicate.evaluate(with: target) } catch is FetchPredicateError {}
            } catch is FetchPredicateError {
                refused += 1
            }
        }
        #expect(parsed > 5_000, "the generator should produce many valid predicates")
        #expect(refused > 5_000, "the generator should produce many invalid ones")
    }
}

/// Random predicate formats from the grammar, optionally garbled.
struct PredicateFuzzer {
    var random: SplitMix64
    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let garbage = [
        "[x]", "[", "]", "\"unterminated", "\"\\u12\"", "\"\\uD800\"", "\"\\", "1e", "-",
        "99999999999999999999999999999999999999999", "%x", "%", "$", "#", "@", "@bogus", "&", "|",
        "*", "?", "\\", "😀", "CAST", "(0, \"NSDate\")", "\"UUID\"", ".", ",", "{", "}", "(", ")",
        "AND", "OR", "NOT", "ANY", "==", "BETWEEN", "IN", "%@", "%K", "[cd]", "\n", "é",
    ]
    static let keys = [
        "title", "price", "pages", "rating", "isRead", "publishDate", "author", "author.name",
        "books.@count", "author.books.@sum.price", "author.books.@max.publishDate", "SELF", "tags",
        "subtitle", "#title", "%K", "nope",
    ]
    static let values = [
        "\"Cien\"", "'a*b?'", "\"(\"", "\"\\u00e9\"", "\"é\"", "42", "-3.5", "1e5", "0.000001",
        "nil",
        "YES", "NO", "%@", "%d", "%f", "$var", "{1, 2}", "{\"a\", nil}", "{}", "price", "title",
        "CAST(0, \"NSDate\")", "CAST(\"0.5\", \"Double\")",
    ]
    static let operators = [
        "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "BETWEEN", "IN", "in", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES",
    ]
    static let argumentPool: [(any Sendable)?] = [
        "title", "author.name", "books.@count", 7, 2.5, nil, ["a", "b"], [1, 2],
        Decimal(string: "1.5"), true, Date(timeIntervalSince1970: 0), "a b",
    ]

    mutating func pick(_ list: [String]) -> String {
        list[Int.random(in: 0..<list.count, using: &random)]
    }
    mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &random) < percent
    }

    mutating func predicate(depth: Int) -> [String] {
        switch depth > 3 ? 9 : Int.random(in: 0..<10, using: &random) {
        case 0: return ["("] + predicate(depth: depth + 1) + [")"]
        case 1:
            return predicate(depth: depth + 1) + [pick(["AND", "&&", "and"])]
                + predicate(depth: depth + 1)
        case 2:
            return predicate(depth: depth + 1) + [pick(["OR", "||"])] + predicate(depth: depth + 1)
        case 3: return [pick(["NOT", "!"])] + predicate(depth: depth + 1)
        case 4: return [pick(["TRUEPREDICATE", "FALSEPREDICATE"])]
        default:
            var tokens: [String] = []
            if chance(20) { tokens.append(pick(["ANY", "ALL", "NONE", "SOME"])) }
            tokens.append(pick(Self.keys))
            tokens.append(pick(Self.operators) + (chance(20) ? pick(["[c]", "[d]", "[cd]"]) : ""))
            tokens.append(pick(Self.values))
            return tokens
        }
    }

    /// The next format and arguments for its specifiers.
    mutating func next() -> (String, [Any?]) {
        var tokens = predicate(depth: 0)
        if chance(50) {
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0...tokens.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where index < tokens.count: tokens.remove(at: index)
                case 1: tokens.insert(pick(Self.garbage), at: index)
                case 2 where index < tokens.count: tokens[index] = pick(Self.garbage)
                default:
                    if index + 1 < tokens.count { tokens.swapAt(index, index + 1) }
                }
            }
        }
        var arguments: [Any?] = []
        for token in tokens where token.hasPrefix("%") && token.count == 2 {
            arguments.append(
                Self.argumentPool[Int.random(in: 0..<Self.argumentPool.count, using: &random)])
        }
        if chance(3) { arguments.append("surplus") }
        return (tokens.joined(separator: chance(90) ? " " : ""), arguments)
    }
}
