import BookCatalog
import CommandLineSupport
import Foundation
import Persistence
import Testing

@testable import books

/// Every parser that reads user or file input, fed mutated valid inputs by ``Fuzzer``: no
/// crash, no hang, every rejection a thrown error that explains itself, and every accepted
/// input survives a round trip through the matching writer.
///
/// Quick mode runs 20,000 inputs per target; `FUZZ_ITERATIONS=5000000 swift test --filter
/// FuzzTests` runs the long mode, and `FUZZ_SEED=n` other inputs.
@Suite struct FuzzTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Checks a finished run: no broken rule, and both outcomes reached (else the seeds or
    /// the mutations are wrong and the run tested little).
    func check(_ report: FuzzReport, _ target: String) {
        print("fuzz \(target): \(report)")
        #expect(report.failures.isEmpty, "\(target): \(report.failures.joined(separator: "\n"))")
        #expect(report.accepted > 0 && report.rejected > 0, "\(target): \(report)")
    }

    // MARK: - Predicates

    @Test func predicateParser() {
        var fuzzer = Fuzzer(
            seeds: [
                "title == \"Cien años\"", "price < 10 AND author.name BEGINSWITH[cd] \"gabriel\"",
                "NOT (price BETWEEN {1, 5})", "title IN {'a', \"b\"} OR pages >= -3.5e2",
                "ANY books.price > 3", "books.@count >= 2 AND title MATCHES \"^C.*\"",
                "publishDate > CAST(0, \"NSDate\")", "title LIKE[c] 'a*b?' && author != nil",
                "TRUEPREDICATE", "(a == 1 || b == 2) AND !(c <= 3)", "author.books.@sum.price > 100",
            ],
            tokens: [
                "(", ")", "{", "}", "\"", "'", "\\", "\\u", "[cd]", "[", "]", "AND", "OR", "NOT", "ANY",
                "ALL", "NONE", "SOME", "IN", "BETWEEN", "==", "!=", "<", ">=", "=<", "%@", "%K", "%d",
                "$x", "@count", ".@sum.", "nil", "NULL", "YES", "FALSE", "1e999", "-", "0x1F", ",",
                "SELF", "CAST(", "SUBQUERY(", "FUNCTION(", "é", "😀", "\u{0}",
            ],
            target: "predicate")
        let report = Fuzzer.run(make: { fuzzer.nextString() }, show: { $0 }) { text in
            let predicate = try FetchPredicate(format: text, argumentArray: [])
            let again = try FetchPredicate(format: predicate.description, argumentArray: [])
            guard again == predicate else {
                throw FuzzRuleBroken("'\(text)' reads back from '\(predicate.description)' differently")
            }
            return .accepted
        }
        check(report, "predicate parser")
    }

    // MARK: - Model files

    @Test func modelFileReader() throws {
        let files = [
            "Sources/BookCatalog/Books.xcdatamodeld/Books.xcdatamodel/contents",
            "Tests/Fixtures/models/objcio/Moody.xcdatamodel/contents",
            "Tests/Fixtures/models/CoreDataPlus/SampleModel.xcdatamodeld/SampleModel3.xcdatamodel/contents",
        ]
        let seeds = try files.map { try [UInt8](Data(contentsOf: Self.root.appendingPathComponent($0))) }
        var fuzzer = Fuzzer(
            seeds: seeds,
            tokens: [
                "<", ">", "/>", "</entity>", "\"", "=", "&amp;", "&#0;", "&#x110000;", "&undefined;",
                "<!--", "-->", "<![CDATA[", "]]>", "<?xml version=\"1.0\"?>",
                "<!DOCTYPE m [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]>", "&b;",
                "<entity name=\"E\" representedClassName=\"E\">", "<attribute name=\"a\" attributeType=\"Decimal\"/>",
                "<relationship name=\"r\" destinationEntity=\"E\" toMany=\"YES\" deletionRule=\"Cascade\"/>",
                " minCount=\"x\"", " attributeType=\"Nope\"", " optional=\"NO\"", "<uniquenessConstraint>",
                "<constraint value=\"a\"/>", " defaultValueString=\"1e999\"", " parentEntity=\"E\"",
                " derived=\"YES\" derivationExpression=\"canonical:(\"", "\u{0}", "é",
            ].map { Array($0.utf8) },
            target: "model")
        let report = Fuzzer.run(
            iterations: max(1, Fuzzer.iterations / 10), multilineErrors: true,
            make: { fuzzer.nextBytes() }, show: { String(decoding: $0, as: UTF8.self) }
        ) { bytes in
            let model = try ModelFileReader(file: "fuzz/contents").read(Data(bytes))
            try model.validate()
            return .accepted
        }
        check(report, "model-file reader")
    }

    // MARK: - Seed files

    @Test func seedFileReader() throws {
        let bundled = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.root.appendingPathComponent("SeedData/books.json"))) as? [Any] ?? []
        let seeds = try [Array(bundled.prefix(2)), Array(bundled.dropFirst(40).prefix(3)), []].map {
            try [UInt8](JSONSerialization.data(withJSONObject: $0, options: [.prettyPrinted]))
        }
        var fuzzer = Fuzzer(
            seeds: seeds,
            tokens: [
                "{", "}", "[", "]", "\"", ":", ",", "\\", "\\u0000", "\\ud800", "null", "true", "1e999",
                "-0", "\"uuid\": \"x\"", "\"price\": \"1e5\"", "\"price\": \"-1\"", "\"price\": 12.99",
                "\"publishDate\": \"2023-02-29\"", "\"color\": \"#GGGGGG\"", "\"color\": null",
                "\"title\": \"\"", "é", "\u{FEFF}",
            ].map { Array($0.utf8) },
            target: "seed")
        let report = Fuzzer.run(make: { fuzzer.nextBytes() }, show: { String(decoding: $0, as: UTF8.self) }) { bytes in
            let books = try SeedBook.decode(Data(bytes), file: "fuzz.json")
            for book in books where book.title.isEmpty || book.price < 0 {
                throw FuzzRuleBroken("accepted a book that breaks the rules: \(book)")
            }
            return .accepted
        }
        check(report, "seed-file reader")
    }

    // MARK: - Decimals and dates

    @Test func decimalParsers() {
        var fuzzer = Fuzzer(
            seeds: ["12.99", "0", "-0.5", "1e10", "123456789012345678901234567890123456789", "0.000001", "1E-130", "7."],
            tokens: ["0", "9", ".", "-", "+", "e", "E", "999", "e127", "e-128", ",", " ", "0x", "٣", "١", "inf", "nan", "\u{0}"],
            target: "decimal")
        let report = Fuzzer.run(make: { fuzzer.nextString() }, show: { $0 }) { text in
            var accepted = false
            for parse in [DecimalText.parse, DecimalText.plainParse] as [(String) throws -> Decimal] {
                guard let value = try? parse(text) else { continue }
                accepted = true
                let written = DecimalText.format(value)
                guard (try? DecimalText.parse(written)) == value else {
                    throw FuzzRuleBroken("'\(text)' → \(written) does not read back")
                }
            }
            if accepted { return .accepted }
            _ = try DecimalText.parse(text)  // throws the error to check
            throw FuzzRuleBroken("plainParse refused '\(text)' without an error to show")
        }
        check(report, "Decimal parsers")
    }

    @Test func dateParsers() {
        let utc = TimeZone(secondsFromGMT: 0) ?? .current
        var fuzzer = Fuzzer(
            seeds: [
                "2024-02-29", "1970-01-01", "0000-01-01", "9999-12-31", "2024-02-29T12:34:56Z",
                "1970-01-01T00:00:00.123456789+05:30", "-0001-01-01T00:00:00Z", "+10000-03-01T23:59:59-12:00",
            ],
            tokens: ["0", "9", "-", "+", ":", "T", "Z", ".", "60", "24", "13", "31", "00", "٢", " ", "\u{0}", "+99:99"],
            target: "date")
        let report = Fuzzer.run(make: { fuzzer.nextString() }, show: { $0 }) { text in
            if let day = try? DateText.parseDay(text, timeZone: utc) {
                guard DateText.formatDay(day, timeZone: utc) == text else {
                    throw FuzzRuleBroken("day '\(text)' is written back as \(DateText.formatDay(day, timeZone: utc))")
                }
                return .accepted
            }
            let date = try DateText.parseISO8601(text)
            let written = DateText.formatISO8601(date)
            guard let again = try? DateText.parseISO8601(written), abs(again.timeIntervalSince(date)) < 1e-3 else {
                throw FuzzRuleBroken("'\(text)' → \(written) does not read back")
            }
            return .accepted
        }
        check(report, "date parsers")
    }

    // MARK: - Colors

    @Test func colorDecoders() {
        let transformer = ColorToDataTransformer()
        var bytes = Fuzzer(
            seeds: [[1, 30, 144, 255, 255], [1, 0, 0, 0, 0]], tokens: [[0], [1], [2], [0xFF], [1, 1, 1, 1, 1]],
            target: "color-bytes")
        let decoded = Fuzzer.run(make: { bytes.nextBytes() }, show: { "\($0)" }) { input in
            let color = try transformer.reverseTransformedValue(Data(input))
            guard try transformer.transformedValue(color) == Data(input) else {
                throw FuzzRuleBroken("\(input) does not encode back to itself")
            }
            return .accepted
        }
        check(decoded, "color transformer")

        var hex = Fuzzer(
            seeds: ["#1E90FF", "#000000", "#abcdef"], tokens: ["#", "0", "F", "f", "g", "G", " ", "ﬀ", "٣", "\u{0}"],
            target: "color-hex")
        let parsed = Fuzzer.run(make: { hex.nextString() }, show: { $0 }) { text in
            let color = try Color(hex: text)
            guard color.hex == text.uppercased() else {
                throw FuzzRuleBroken("'\(text)' is written back as \(color.hex)")
            }
            return .accepted
        }
        check(parsed, "color hex")
    }

    // MARK: - Command line

    @Test func argumentParser() {
        var fuzzer = Fuzzer(
            seeds: [
                "list --by-month --limit 5", "search marquez cien --json",
                "add --title T --author A --date 2020-01-01 --price 1 --color #FFFFFF",
                "seed --count 10 --file x.json --batch-size 3", "show E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                "help list", "--store /tmp/x.sqlite list --where price<10", "--version", "delete -- x",
            ],
            tokens: [
                "--", "-h", "--help", "--limit", "--limit=", "=", "-1", "--store", "--json", "help", "list",
                "", " ", "--by-month=yes", "-", "--count=99999999999999999999", "--where", "-x", "—", "é",
            ],
            target: "arguments")
        let report = Fuzzer.run(
            multilineErrors: true, make: { fuzzer.nextWords() }, show: { "\($0)" }
        ) { (words: [String]) in
            do throws(UsageError) {
                _ = try BooksCommandLine.parse(words, environment: ["HOME": "/tmp"])
                return .accepted
            } catch {
                guard error.description.hasPrefix("Error: "), error.exitCode == .usage else {
                    throw FuzzRuleBroken("a usage error without 'Error: ' or exit 64: \(error.description)")
                }
                return .rejected(error)
            }
        }
        check(report, "argument parser")
    }
}
