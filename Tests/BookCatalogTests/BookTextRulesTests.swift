import Foundation
import Testing
@testable import BookCatalog
import Persistence

/// Text fields refuse control characters and are limited in Unicode scalars as well as in
/// characters; days before year 1 are refused.
@Suite struct BookTextRulesTests {
    private func refusal(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    static let controls: [String] = ["\u{1B}[31m", "\u{07}", "a\nb", "a\rb", "tab\there", "\u{7F}", "\u{85}x", "\u{9B}2J", "\u{0}"]

    @Test(arguments: controls)
    func controlCharactersAreRefusedInTitlesAndNames(_ bad: String) {
        let title = refusal { try BookInput.title("Title \(bad) end") }
        #expect(title?.hasPrefix("Invalid title '") == true, "\(title ?? "accepted")")
        #expect(title?.contains("a title can't contain control characters (U+") == true, "\(title ?? "")")
        #expect(title?.contains("\n") == false)
        let author = refusal { try BookInput.author("Ana \(bad) Nowak", field: "x.json entry 3: author") }
        #expect(author?.hasPrefix("Invalid x.json entry 3: author '") == true, "\(author ?? "accepted")")
    }

    @Test func surroundingWhiteSpaceIsStillTrimmed() throws {
        #expect(try BookInput.title("\t Dune \n") == "Dune")
        #expect(try BookInput.author("  Frank Herbert\r\n") == "Frank Herbert")
        #expect(try BookInput.title("Ærø: Cœur — 🇵🇱 👨‍👩‍👧‍👦") == "Ærø: Cœur — 🇵🇱 👨‍👩‍👧‍👦")
    }

    @Test func combiningMarksCountTowardsAScalarLimit() {
        let heavy = "e" + String(repeating: "\u{301}", count: 100_000)
        #expect(heavy.count == 1)
        let title = refusal { try BookInput.title(heavy) }
        #expect(title?.contains("a title is at most 500 characters and 2000 Unicode scalars (this one has 100001 Unicode scalars)") == true, "\(title ?? "accepted")")
        #expect((title?.unicodeScalars.count ?? 0) < 200, "the message quotes the whole value")
        let author = refusal { try BookInput.author("A" + String(repeating: "\u{308}", count: 801)) }
        #expect(author?.contains("800 Unicode scalars") == true, "\(author ?? "accepted")")
        #expect(throws: Never.self) { try BookInput.title(String(repeating: "e\u{301}", count: 500)) }
        #expect(throws: Never.self) { try BookInput.author(String(repeating: "a\u{308}", count: 200)) }
    }

    @Test func yearsBeforeOneAreRefused() throws {
        let zero = refusal { try BookInput.day("0000-01-01") }
        #expect(zero == "Invalid date '0000-01-01': the year must be 1 or later")
        let seed = refusal { try BookInput.day("0000-12-31", field: "f.json entry 2: publishDate") }
        #expect(seed?.hasPrefix("Invalid f.json entry 2: publishDate '0000-12-31'") == true)
        #expect(DateText.formatDay(try BookInput.day("0001-01-01"), timeZone: Catalog.calendarTimeZone) == "0001-01-01")
    }

    @Test func seedEntriesAreCheckedTheSameWay() {
        let entry = """
            [{"uuid": "5F0C3A6E-0000-4000-8000-000000000001", "title": "Bell\\u0007", "author": "A",
              "publishDate": "1967-05-30", "price": "1"}]
            """
        let error = refusal { try SeedBook.decode(Data(entry.utf8), file: "t.json") }
        #expect(error?.hasPrefix("Invalid t.json entry 1: title 'Bell\\u{7}'") == true, "\(error ?? "accepted")")
        let yearZero = entry.replacingOccurrences(of: "Bell\\u0007", with: "T").replacingOccurrences(of: "1967", with: "0000")
        let dateError = refusal { try SeedBook.decode(Data(yearZero.utf8), file: "t.json") }
        #expect(dateError?.hasPrefix("Invalid t.json entry 1: publishDate '0000-05-30'") == true, "\(dateError ?? "accepted")")
    }
}
