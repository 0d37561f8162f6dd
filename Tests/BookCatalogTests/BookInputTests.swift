import Foundation
import Testing
@testable import BookCatalog
import Persistence

@Suite struct BookInputTests {
    private func seedError(_ json: String) -> String? {
        do {
            _ = try SeedBook.decode(Data(json.utf8), file: "test.json")
            return nil
        } catch {
            return "\(error)"
        }
    }

    private let good = """
        {"uuid": "5F0C3A6E-0000-4000-8000-000000000001", "title": "Cien años de soledad",
         "author": "Gabriel García Márquez", "publishDate": "1967-05-30", "price": "12.99",
         "color": "#C0392B"}
        """

    @Test func aWellFormedSeedEntryIsReadExactly() throws {
        let books = try SeedBook.decode(Data("[\(good)]".utf8))
        #expect(books.count == 1)
        #expect(books[0].price == Decimal(1299) / 100)
        #expect(books[0].color == Color(red: 0xC0, green: 0x39, blue: 0x2B))
        #expect(DateText.formatDay(books[0].publishDate, timeZone: Catalog.calendarTimeZone) == "1967-05-30")
    }

    @Test func malformedSeedFilesNameTheFileEntryAndField() {
        #expect(seedError("[\(good)")?.hasPrefix("Invalid seed file 'test.json': it is not valid JSON") == true)
        #expect(seedError("{}") == "Invalid seed file 'test.json': expected a JSON array of books")
        #expect(seedError("[1]")?.hasPrefix("Invalid test.json entry 1") == true)
        let second = good.replacingOccurrences(of: "5F0C3A6E-0000", with: "5F0C3A6E-0001")
        let badDate = second.replacingOccurrences(of: "1967-05-30", with: "1967-02-30")
        #expect(seedError("[\(good), \(badDate)]")?.hasPrefix("Invalid test.json entry 2: publishDate '1967-02-30'") == true)
        #expect(seedError("[\(good), \(second), \(good)]")?.hasPrefix("Invalid test.json entry 3: uuid '5F0C3A6E-0000") == true)
        #expect(seedError("[\(good), \(second), \(good)]")?.hasSuffix("entry 1 has the same UUID") == true)
        let badPrice = good.replacingOccurrences(of: "\"12.99\"", with: "\"12,99\"")
        #expect(seedError("[\(badPrice)]")?.hasPrefix("Invalid test.json entry 1: price '12,99'") == true)
        let noTitle = good.replacingOccurrences(of: "\"title\"", with: "\"name\"")
        #expect(seedError("[\(noTitle)]")?.hasPrefix("Invalid test.json entry 1: title") == true)
        let badUUID = good.replacingOccurrences(of: "5F0C3A6E-0000", with: "nope")
        #expect(seedError("[\(badUUID)]")?.hasPrefix("Invalid test.json entry 1: uuid") == true)
    }

    @Test func fieldsAreCheckedStrictly() throws {
        #expect(throws: CatalogInputError.self) { try BookInput.title("   ") }
        #expect(throws: CatalogInputError.self) { try BookInput.title(String(repeating: "a", count: 501)) }
        #expect(try BookInput.title(String(repeating: "é", count: 500)).count == 500)
        for bad in ["19,99", "-1", "1e999", "abc", "12.3.4", "", " 1"] {
            #expect(throws: CatalogInputError.self, "\(bad)") { try BookInput.price(bad) }
        }
        #expect(try BookInput.price("0") == 0)
        #expect(throws: CatalogInputError.self) { try BookInput.day("2023-02-30") }
        #expect(try BookInput.day("2024-02-29").timeIntervalSince1970 == 1_709_164_800)
    }

    @Test func colorsAreHexAndTheirBytesAreChecked() throws {
        #expect(try Color(hex: "#1e90ff").hex == "#1E90FF")
        for bad in ["red", "#12345", "#GGGGGG", "1E90FF", "#+12345"] {
            #expect(throws: CatalogInputError.self, "\(bad)") { try Color(hex: bad) }
        }
        let transformer = ColorToDataTransformer()
        let color = Color(red: 1, green: 2, blue: 3, alpha: 4)
        #expect(try transformer.reverseTransformedValue(transformer.transformedValue(color)) as? Color == color)
        #expect(throws: ValueTransformerError.self) { try transformer.reverseTransformedValue(Data([2, 1, 2, 3, 4])) }
        #expect(throws: ValueTransformerError.self) { try transformer.reverseTransformedValue(Data()) }
        #expect(throws: ValueTransformerError.self) { try transformer.transformedValue("not a color") }
        // Format 1, then red, green, blue and alpha: the bytes every store holds.
        #expect(try transformer.transformedValue(Color(red: 0x1E, green: 0x90, blue: 0xFF, alpha: 7)) == Data([1, 0x1E, 0x90, 0xFF, 7]))
    }
}
