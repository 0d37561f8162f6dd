import Foundation
import Testing
@testable import BookCatalog

/// What the catalogue keeps of an import, as the JSON text it stores: the same values are
/// always the same text, and any text comes back as it was.
@Suite struct ImportedFieldValuesTests {
    @Test func valuesRoundTripThroughTheirJSONWhateverTheirText() throws {
        let values = ImportedFieldValues(texts: [
            .title: "Quotes \" and \\ backslashes", .notes: "Line one\nline two\t\u{1B}[2J", .authors: "Ann\nBob",
            .tags: "ciencia ficción\n日本", .rating: "",
        ])
        let json = values.json
        #expect(!json.contains("\n"))
        #expect(ImportedFieldValues(json: json) == values)
        // Keys sorted: the same values make the same text, in whatever order they were set.
        #expect(json.hasPrefix("{\"authors\":\"Ann\\nBob\",\"notes\":"), "\(json)")
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String] != nil)
    }

    @Test func storedTextThatIsNotValuesGivesNone() {
        #expect(ImportedFieldValues(json: "not json").texts.isEmpty)
        #expect(ImportedFieldValues(json: "[\"title\"]").texts.isEmpty)
        // Keys of no field, the UUID and values that are not text are passed over.
        #expect(ImportedFieldValues(json: "{\"title\": \"T\", \"uuid\": \"X\", \"shelf\": \"a\", \"rating\": 4}").texts == [.title: "T"])
    }

    @Test func aDateIsKeptToItsPrecision() throws {
        var record = BookRecord(uuid: nil, title: "T", authors: ["A"], publishDate: Date(timeIntervalSince1970: 0))
        #expect(ImportedFieldValues.text(.publishDate, of: record) == "1970-01-01")
        record.datePrecision = .month
        #expect(ImportedFieldValues.text(.publishDate, of: record) == "1970-01")
        record.datePrecision = .year
        #expect(ImportedFieldValues.text(.publishDate, of: record) == "1970")
        #expect(ImportedFieldValues(record).texts[.datePrecision] == nil && ImportedFieldValues(record).texts[.uuid] == nil)
    }
}
