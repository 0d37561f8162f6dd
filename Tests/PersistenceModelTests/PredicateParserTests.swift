import Foundation
import Testing
@testable import Persistence
@testable import PersistenceModel

/// One parsing case: a format, its arguments, and the normalized description expected.
struct PredicateParseCase: CustomTestStringConvertible, @unchecked Sendable {
    let format: String
    let arguments: [Any?]
    let expected: String
    init(_ format: String, _ arguments: Any?..., is expected: String) {
        self.format = format
        self.arguments = arguments
        self.expected = expected
    }
    var testDescription: String { format }
}

private let parseCases: [PredicateParseCase] = [
    // Comparison operators and their spellings.
    .init("title == \"x\"", is: "title == \"x\""),
    .init("title = 'x'", is: "title == \"x\""),
    .init("price != 5", is: "price != 5"),
    .init("price <> 5", is: "price != 5"),
    .init("price < 5", is: "price < 5"),
    .init("price <= 5", is: "price <= 5"),
    .init("price =< 5", is: "price <= 5"),
    .init("price > 5", is: "price > 5"),
    .init("price >= 5", is: "price >= 5"),
    .init("price => 5", is: "price >= 5"),
    .init("price BETWEEN {1, 10}", is: "price BETWEEN {1, 10}"),
    .init("price between { 1.5 , 10 }", is: "price BETWEEN {1.5, 10}"),
    .init("title IN {\"a\", 'b'}", is: "title IN {\"a\", \"b\"}"),
    .init("title in %@", ["a", "b"], is: "title IN {\"a\", \"b\"}"),
    .init("pages IN %@", Set([7]), is: "pages IN {7}"),
    .init("title IN {}", is: "title IN {}"),
    .init("title BEGINSWITH \"a\"", is: "title BEGINSWITH \"a\""),
    .init("title endswith \"a\"", is: "title ENDSWITH \"a\""),
    .init("title Contains \"a\"", is: "title CONTAINS \"a\""),
    .init("title LIKE \"a*b?\"", is: "title LIKE \"a*b?\""),
    .init("title MATCHES \"[a-z]+\"", is: "title MATCHES \"[a-z]+\""),
    // Modifiers.
    .init("title CONTAINS[c] \"a\"", is: "title CONTAINS[c] \"a\""),
    .init("title CONTAINS[d] \"a\"", is: "title CONTAINS[d] \"a\""),
    .init("title CONTAINS[cd] \"a\"", is: "title CONTAINS[cd] \"a\""),
    .init("title contains[dc] \"a\"", is: "title CONTAINS[cd] \"a\""),
    .init("title ==[c] \"a\"", is: "title ==[c] \"a\""),
    .init("title LIKE[cd] \"*anos*\"", is: "title LIKE[cd] \"*anos*\""),
    // Compound predicates and precedence.
    .init("a == 1 AND b == 2", is: "a == 1 AND b == 2"),
    .init("a == 1 && b == 2 and c == 3", is: "a == 1 AND b == 2 AND c == 3"),
    .init("a == 1 OR b == 2", is: "a == 1 OR b == 2"),
    .init("a == 1 || b == 2", is: "a == 1 OR b == 2"),
    .init("NOT a == 1", is: "NOT a == 1"),
    .init("!a == 1", is: "NOT a == 1"),
    .init("not not a == 1", is: "NOT NOT a == 1"),
    .init("NOT (a == 1 AND b == 2)", is: "NOT (a == 1 AND b == 2)"),
    .init("a == 1 OR b == 2 AND c == 3", is: "a == 1 OR (b == 2 AND c == 3)"),
    .init("a == 1 AND b == 2 OR c == 3", is: "(a == 1 AND b == 2) OR c == 3"),
    .init("(a == 1 OR b == 2) AND c == 3", is: "(a == 1 OR b == 2) AND c == 3"),
    .init("((a == 1))", is: "a == 1"),
    .init("(a == 1 AND b == 2) AND c == 3", is: "(a == 1 AND b == 2) AND c == 3"),
    .init("TRUEPREDICATE", is: "TRUEPREDICATE"),
    .init("falsepredicate OR TRUEPREDICATE", is: "FALSEPREDICATE OR TRUEPREDICATE"),
    // Literals.
    .init("a == nil", is: "a == nil"),
    .init("a == NULL", is: "a == nil"),
    .init("a == TRUE AND b == yes", is: "a == TRUE AND b == TRUE"),
    .init("a == FALSE OR b == No", is: "a == FALSE OR b == FALSE"),
    .init("t == \"say \\\"hi\\\"\"", is: "t == \"say \\\"hi\\\"\""),
    .init("t == 'it\\'s'", is: "t == \"it's\""),
    .init("t == \"a\\nb\\tc\\\\d\"", is: "t == \"a\\nb\\tc\\\\d\""),
    .init("t == \"\\u00e9t\\u00C9\"", is: "t == \"étÉ\""),
    .init("t == \"\\uD83D\\uDE00\"", is: "t == \"😀\""),
    .init("t LIKE \"a\\*b\"", is: "t LIKE \"a\\\\*b\""),
    .init("n == -5", is: "n == -5"),
    .init("n == 19.99", is: "n == 19.99"),
    .init("n == 2.50", is: "n == 2.5"),
    .init("n == 1e3", is: "n == 1000.0"),
    .init("n == 1E-2", is: "n == 0.01"),
    .init("n == -0.001", is: "n == -0.001"),
    .init("n == 99999999999999999999", is: "n == 99999999999999999999.0"),
    .init("d > CAST(0, \"NSDate\")", is: "d > CAST(0.0, \"NSDate\")"),
    .init("r == CAST(\"0.1\", \"Double\")", is: "r == CAST(\"0.1\", \"Double\")"),
    // Key paths, SELF, escapes and collection operators.
    .init("author.name == \"x\"", is: "author.name == \"x\""),
    .init("SELF.title == \"x\"", is: "title == \"x\""),
    .init("SELF IN $objects", is: "SELF IN $objects"),
    .init("#IN == 1 AND #title == 2", is: "#IN == 1 AND title == 2"),
    .init("a.#in.b == 1", is: "a.#in.b == 1"),
    .init("books.@count > 3", is: "books.@count > 3"),
    .init("author.books.@sum.price > 10", is: "author.books.@sum.price > 10"),
    .init("books.@avg.price < 1", is: "books.@avg.price < 1"),
    .init(
        "books.@min.publishDate < %@", Date(timeIntervalSinceReferenceDate: 86400),
        is: "books.@min.publishDate < CAST(86400.0, \"NSDate\")"),
    .init("books.@MAX.price >= 2", is: "books.@max.price >= 2"),
    .init("ANY books.title BEGINSWITH \"a\"", is: "ANY books.title BEGINSWITH \"a\""),
    .init("some books.title == \"a\"", is: "ANY books.title == \"a\""),
    .init("ALL books.price > 1", is: "ALL books.price > 1"),
    .init("NONE books.price > 1", is: "NONE books.price > 1"),
    .init("a IN {{1, 2}, {3}}", is: "a IN {{1, 2}, {3}}"),
    // Arguments.
    .init("%K == %@", "title", "x", is: "title == \"x\""),
    .init("%K > %d", "books.@count", 3, is: "books.@count > 3"),
    .init("%K.name == %@", "author", "x", is: "author.name == \"x\""),
    .init("%K == 1", "in", is: "#in == 1"),
    .init(
        "n == %d OR n == %i OR n == %ld", 1, Int8(-2), Int64.max,
        is: "n == 1 OR n == -2 OR n == 9223372036854775807"),
    .init(
        "n == %lld AND n == %u", UInt8(7), UInt64.max,
        is: "n == 7 AND n == 18446744073709551615.0"),
    .init(
        "r == %f AND r == %lf", 1.5, Float(0.25),
        is: "r == CAST(\"1.5\", \"Double\") AND r == CAST(\"0.25\", \"Double\")"),
    .init("n == %@", Decimal(string: "19.99"), is: "n == 19.99"),
    .init("b == %@ AND c == %@", true, nil, is: "b == TRUE AND c == nil"),
    .init("c == %@", NSNull(), is: "c == nil"),
    .init("c == %@", Optional<String>.none as Any, is: "c == nil"),
    .init(
        "u == %@", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
        is: "u == CAST(\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", \"UUID\")"),
    .init(
        "w == %@", URL(string: "https://example.com/a?b=1"),
        is: "w == CAST(\"https://example.com/a?b=1\", \"URL\")"),
    .init("bytes == %@", Data([0, 1, 255]), is: "bytes == CAST(\"AAH/\", \"Data\")"),
    .init("t == \"%@\"", is: "t == \"%@\""),
    .init("t == $TITLE AND p BETWEEN $RANGE", is: "t == $TITLE AND p BETWEEN $RANGE"),
    .init("  title\n CONTAINS\t\"x\"  ", is: "title CONTAINS \"x\""),
]

@Suite struct PredicateParserTests {
    @Test(arguments: parseCases)
    func parsesToNormalizedFormatThatRoundTrips(_ testCase: PredicateParseCase) throws {
        let predicate = try FetchPredicate(
            format: testCase.format, argumentArray: testCase.arguments)
        #expect(predicate.description == testCase.expected)
        let reparsed = try FetchPredicate(predicate.description)
        #expect(reparsed == predicate)
    }

    @Test func tableHasAtLeastSixtyCases() {
        #expect(parseCases.count >= 60)
    }

    @Test func orBindsLooserThanAndAndNotBindsTighter() throws {
        let a = PredicateNode.comparison(.init(.keyPath(["a"]), .equalTo, .constant(.integer(1))))
        let b = PredicateNode.comparison(.init(.keyPath(["b"]), .equalTo, .constant(.integer(2))))
        let c = PredicateNode.comparison(.init(.keyPath(["c"]), .equalTo, .constant(.integer(3))))
        #expect(
            try FetchPredicate("a == 1 OR b == 2 AND c == 3").expression == .or([a, .and([b, c])]))
        #expect(try FetchPredicate("NOT a == 1 AND b == 2").expression == .and([.not(a), b]))
        #expect(try FetchPredicate("NOT (a == 1 OR b == 2)").expression == .not(.or([a, b])))
        #expect(try FetchPredicate("a == 1 AND b == 2 AND c == 3").expression == .and([a, b, c]))
    }

    @Test func buildsTypedNodes() throws {
        let comparison = try #require(try firstComparison("ANY books.title BEGINSWITH[cd] %@", "ñ"))
        #expect(comparison.quantifier == .any)
        #expect(comparison.left == .keyPath(["books", "title"]))
        #expect(comparison.operator == .beginsWith)
        #expect(comparison.options == [.caseInsensitive, .diacriticInsensitive])
        #expect(comparison.right == .constant(.string("ñ")))

        let sum = try #require(try firstComparison("author.books.@sum.price > 1"))
        #expect(
            sum.left == .collectionFunction(.sum, collection: ["author", "books"], key: ["price"]))
        let count = try #require(try firstComparison("books.@count == 0"))
        #expect(count.left == .collectionFunction(.count, collection: ["books"], key: []))
        #expect(try firstComparison("SELF == $x")?.left == .evaluatedObject)
        #expect(
            try firstComparison("t IN %@", [1, 2])?.right
                == .aggregate([.constant(.integer(1)), .constant(.integer(2))]))
    }

    @Test func decimalLiteralsAreExact() throws {
        // Through Double, 19.99 would be 19.989999999999998…; built from digits it is exact.
        #expect(
            try firstComparison("p == 19.99")?.right
                == .constant(.decimal(Decimal(string: "19.99")!)))
        let precise = "12345678901234567890.123456789"
        let right = try firstComparison("p == \(precise)")?.right
        #expect(right == .constant(.decimal(Decimal(string: precise)!)))
        #expect(right?.description == precise)
        #expect(
            try firstComparison("p == 1e-3")?.right
                == .constant(.decimal(Decimal(string: "0.001")!)))
        #expect(try firstComparison("p == -7")?.right == .constant(.integer(-7)))
        #expect(
            try firstComparison("p == %@", Decimal(string: "0.1")!)?.right
                == .constant(.decimal(Decimal(string: "0.1")!)))
    }

    @Test func variablesStayUntilSubstituted() throws {
        let template = try FetchPredicate("title == $TITLE AND price BETWEEN $RANGE OR id IN $IDS")
        #expect(template.variableNames == ["TITLE", "RANGE", "IDS"])
        let partial = try template.substituting(["TITLE": "Dune"])
        #expect(partial.variableNames == ["RANGE", "IDS"])
        let full = try partial.substituting(["RANGE": [1, 10], "IDS": [Int](), "UNUSED": 3])
        #expect(full.description == "(title == \"Dune\" AND price BETWEEN {1, 10}) OR id IN {}")
        #expect(full.variableNames.isEmpty)
        let nilled = try template.substituting(["TITLE": nil])
        #expect(nilled.description.hasPrefix("(title == nil AND"))
    }

    @Test func substitutionRejectsBadValues() throws {
        let template = try FetchPredicate("price BETWEEN $RANGE AND t == $T")
        #expect(throws: FetchPredicateError.self) {
            try template.substituting(["RANGE": [1, 2, 3]])
        }
        #expect(throws: FetchPredicateError.self) { try template.substituting(["RANGE": 5]) }
        do {
            _ = try template.substituting(["T": Locale(identifier: "en")])
            Issue.record("expected an error")
        } catch let error as FetchPredicateError {
            #expect(error.kind == .substitution)
            #expect(error.message.contains("$T"))
            #expect(error.message.hasSuffix("not Locale"))
        }
    }

    @Test func argumentsCannotInjectSyntax() throws {
        let attack = "'); DROP TABLE Book; --"
        let predicate = try FetchPredicate("title == %@", attack)
        #expect(
            predicate.expression
                == .comparison(.init(.keyPath(["title"]), .equalTo, .constant(.string(attack)))))
        #expect(try FetchPredicate(predicate.description) == predicate)
        let quoteAttack = "x\" OR TRUEPREDICATE OR t == \""
        let other = try FetchPredicate("title == %@", quoteAttack)
        #expect(
            other.expression
                == .comparison(
                    .init(.keyPath(["title"]), .equalTo, .constant(.string(quoteAttack)))))
        #expect(try FetchPredicate(other.description) == other)
    }

    @Test func typedArgumentsRoundTripThroughDescription() throws {
        var random = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            var double = Double(bitPattern: random.next())
            if !double.isFinite { double = 0.5 }
            let date = Date(
                timeIntervalSinceReferenceDate: Double(
                    Int32.random(in: .min ... .max, using: &random))
                    + Double.random(in: 0..<1, using: &random))
            let mantissa = Int64.random(in: -999_999_999_999...999_999_999_999, using: &random)
            let decimal = Decimal(
                sign: mantissa < 0 ? .minus : .plus,
                exponent: Int.random(in: -40...40, using: &random),
                significand: Decimal(mantissa.magnitude))
            let predicate = try FetchPredicate(
                "r == %@ AND d == %@ AND p == %@ AND i == %d", double, date, decimal,
                Int64.random(in: .min ... .max, using: &random))
            #expect(try FetchPredicate(predicate.description) == predicate, "\(predicate)")
        }
        let special = try FetchPredicate("p == %@ AND r == %@", Decimal.nan, Double.infinity)
        #expect(
            special.description
                == "p == CAST(\"NaN\", \"NSDecimalNumber\") AND r == CAST(\"inf\", \"Double\")")
        #expect(try FetchPredicate(special.description).description == special.description)
    }

    @Test func alwaysTrueAndAlwaysFalse() throws {
        #expect(FetchPredicate.alwaysTrue == (try FetchPredicate("TRUEPREDICATE")))
        #expect(FetchPredicate.alwaysFalse.description == "FALSEPREDICATE")
    }

    @Test func buildersMakeTheSameTreesAsFormats() throws {
        let built: FetchPredicate = .key("price") < 10 && .key("title").contains("anos", .cd)
        #expect(built == (try FetchPredicate("price < 10 AND title CONTAINS[cd] \"anos\"")))
        let quantified: FetchPredicate =
            .any("books.title").beginsWith("A") || !(.key("author") == nil)
        #expect(
            quantified
                == (try FetchPredicate("ANY books.title BEGINSWITH \"A\" OR NOT author == nil")))
        let counted: FetchPredicate =
            .key("books").count >= 2 && .key("books").sum("price") > Decimal(30)
            && .key("pages").between(100, 500) && .key("id").isIn([1, 2])
        #expect(
            counted
                == (try FetchPredicate(
                    "books.@count >= 2 AND books.@sum.price > 30.0 AND pages BETWEEN {100, 500} AND id IN {1, 2}"
                )))
        #expect(try FetchPredicate(counted.description) == counted)
        let none: FetchPredicate = .none("books.price") <= 5 && .all("books.title") != "x"
        #expect(none.description == "NONE books.price <= 5 AND ALL books.title != \"x\"")
    }

    private func firstComparison(_ format: String, _ arguments: Any?...) throws
        -> PredicateNode.Comparison?
    {
        var found: PredicateNode.Comparison?
        try FetchPredicate(format: format, argumentArray: arguments).expression.forEachComparison {
            if found == nil { found = $0 }
        }
        return found
    }
}
