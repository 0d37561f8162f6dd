import Foundation
import PersistenceCoreDataStore
import Testing

/// Apple's binary property lists: Core Data's own metadata read, every kind of value written
/// and read back, and hostile files refused with one line each.
@Suite struct FormatsBinaryPropertyListTests {
    // MARK: - Core Data's metadata

    @Test func readsTheMetadataCoreDataWrote() throws {
        let metadata = try #require(
            try BinaryPropertyList.read(FormatsFixture.metadata).dictionaryValue)
        #expect(metadata["NSStoreType"] == .string("SQLite"))
        #expect(metadata["NSPersistenceFrameworkVersion"] == .integer(1044))
        #expect(metadata["NSStoreModelVersionIdentifiers"] == .array([.string("1")]))
        #expect(metadata["NSStoreModelVersionHashesVersion"] == .integer(3))
        let hashes = try #require(metadata["NSStoreModelVersionHashes"]?.dictionaryValue)
        #expect(Set(hashes.keys) == ["Car", "SportCar", "ExpensiveSportCar", "Person"])
        for (entity, hash) in hashes { #expect(hash.dataValue?.count == 32, "\(entity)") }
    }

    @Test func metadataSurvivesARoundTrip() throws {
        let metadata = try BinaryPropertyList.read(FormatsFixture.metadata)
        let written = BinaryPropertyList.write(metadata)
        #expect(BinaryPropertyList.isBinaryPropertyList(written))
        #expect(try BinaryPropertyList.read(written) == metadata)
    }

    @Test func everyKindOfValueSurvivesARoundTrip() throws {
        let many = (0..<300).map { PropertyListValue.integer(Int64($0) * 1_000) }
        let value = PropertyListValue.dictionary([
            "null": .null, "true": .bool(true), "false": .bool(false),
            "small": .integer(7), "word": .integer(65_535), "int32": .integer(4_000_000_000),
            "negative": .integer(-1), "min": .integer(.min), "max": .integer(.max),
            "huge": .unsignedInteger(.max), "real": .real(-2.5),
            "date": .date(Date(timeIntervalSinceReferenceDate: 86_400.5)),
            "data": .data(Data((0..<40).map { UInt8($0) })), "ascii": .string("Car"),
            "unicode": .string("Cien años de soledad 😀"), "empty": .string(""),
            "array": .array(many), "set": .set([.string("a"), .integer(1)]), "uid": .uid(70_000),
            "nested": .dictionary(["inner": .array([.dictionary([:]), .array([])])]),
        ])
        #expect(try BinaryPropertyList.read(BinaryPropertyList.write(value)) == value)
    }

    @Test func sharedValuesAreStoredOnce() {
        let one = BinaryPropertyList.write(
            .array(Array(repeating: .string("the same long string"), count: 1)))
        let ten = BinaryPropertyList.write(
            .array(Array(repeating: .string("the same long string"), count: 10)))
        #expect(ten.count - one.count < 30)
    }

    // MARK: - Hostile files

    @Test func anArrayContainingItselfIsACycle() {
        expectRefusal(Self.plist([[0xA1, 0x00]]), mentioning: "cycle")
    }

    @Test func anOffsetOutsideTheObjectsIsRefused() {
        var bytes = [UInt8](Self.plist([[0x08]]))
        bytes[bytes.count - 32 - 1] = 0xF0  // the only offset
        expectRefusal(Data(bytes), mentioning: "offset")
    }

    @Test func aReferenceToNoObjectIsRefused() {
        expectRefusal(Self.plist([[0xA1, 0x05]]), mentioning: "reference 5")
    }

    @Test func aCountLargerThanTheFileIsRefused() {
        expectRefusal(
            Self.plist([[0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]),
            mentioning: "count")
        expectRefusal(Self.plist([[0x4F, 0x10, 30]]), mentioning: "30 bytes run past the objects")
        expectRefusal(Self.plist([[0x6F, 0x10, 16]]), mentioning: "run past the objects")
    }

    @Test func invalidTrailerFieldsAreRefused() {
        for (position, value, words) in [
            (6, UInt8(0), "offset size"), (6, 9, "offset size"), (7, 0, "reference size"),
            (7, 200, "reference size"),
        ] {
            var bytes = [UInt8](Self.plist([[0x08]]))
            bytes[bytes.count - 32 + position] = value
            expectRefusal(Data(bytes), mentioning: words)
        }
        var topless = [UInt8](Self.plist([[0x08]]))
        topless[topless.count - 9] = 3  // the top object's low byte
        expectRefusal(Data(topless), mentioning: "top object")
        var countless = [UInt8](Self.plist([[0x08]]))
        countless[countless.count - 24 + 0] = 0x7F  // the object count's high byte
        expectRefusal(Data(countless), mentioning: "object count")
        var tableless = [UInt8](Self.plist([[0x08]]))
        tableless[tableless.count - 1] = 0xFF  // the offset table's offset
        expectRefusal(Data(tableless), mentioning: "offset table")
    }

    @Test func truncatedAndForeignBytesAreRefused() {
        let whole = BinaryPropertyList.write(.array([.string("a"), .integer(1)]))
        for length in [0, 7, 8, 20, whole.count - 1] {
            #expect(throws: CoreDataFormatError.self) {
                try BinaryPropertyList.read(whole.prefix(length))
            }
        }
        expectRefusal(
            Data("<?xml version=\"1.0\"?><plist/>".utf8 + [UInt8](repeating: 0, count: 40)),
            mentioning: "header")
    }

    @Test func deepNestingIsRefused() {
        // Object i is an array holding object i + 1; the last one is empty.
        let depth = BinaryPropertyList.maximumDepth + 10
        var objects = (0..<depth).map { [0xA1, UInt8($0 + 1)] as [UInt8] }
        objects.append([0xA0])
        expectRefusal(Self.plist(objects), mentioning: "deeper")
        let shallow = (0..<50).map { [0xA1, UInt8($0 + 1)] as [UInt8] } + [[0xA0]]
        #expect(throws: Never.self) { try BinaryPropertyList.read(Self.plist(shallow)) }
    }

    @Test func sharedObjectsThatExpandExponentiallyAreRefused() {
        // Object i is an array holding object i + 1 twice: 2^60 values from 61 objects.
        var objects = (0..<60).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] as [UInt8] }
        objects.append([0x08])
        expectRefusal(Self.plist(objects), mentioning: "expand")
    }

    @Test func integersWiderThan64BitsAreRefused() throws {
        let big =
            [0x14] + [UInt8](repeating: 0, count: 7) + [0x01] + [UInt8](repeating: 0, count: 8)
        expectRefusal(Self.plist([big]), mentioning: "128-bit")
        let unsigned = [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)
        #expect(try BinaryPropertyList.read(Self.plist([unsigned])) == .unsignedInteger(.max))
    }

    @Test func datesThatAreNotNumbersAreRefused() {
        // Foundation's Date.description traps on NaN, so such a date must never be read.
        let nan =
            [0x33]
            + (0..<8).reversed().map {
                UInt8(truncatingIfNeeded: Double.nan.bitPattern >> ($0 * 8))
            }
        expectRefusal(Self.plist([nan]), mentioning: "finite")
    }

    @Test func dictionaryKeysMustBeStrings() {
        expectRefusal(Self.plist([[0xD1, 0x01, 0x01], [0x10, 0x05]]), mentioning: "not a string")
    }

    // MARK: - Helpers

    /// A binary property list of raw objects (1-byte references; 1- or 2-byte offsets).
    static func plist(_ objects: [[UInt8]], top: Int = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes.append(contentsOf: object)
        }
        let table = bytes.count
        let offsetSize = table > 0xFF ? 2 : 1
        for offset in offsets {
            if offsetSize == 2 { bytes.append(UInt8(offset >> 8)) }
            bytes.append(UInt8(offset & 0xFF))
        }
        bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 1])
        for number in [objects.count, top, table] {
            bytes.append(
                contentsOf: (0..<8).reversed().map { UInt8(truncatingIfNeeded: number >> ($0 * 8)) }
            )
        }
        return Data(bytes)
    }
}

/// Expects `data` to be refused with a one-line `CoreDataFormatError` containing `words`.
func expectRefusal(
    _ data: Data, mentioning words: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let value = try BinaryPropertyList.read(data)
        Issue.record("read \(value) instead of refusing", sourceLocation: sourceLocation)
    } catch let error as CoreDataFormatError {
        #expect(error.description.contains(words), "\(error)", sourceLocation: sourceLocation)
        #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
    } catch {
        Issue.record("threw \(error), not a CoreDataFormatError", sourceLocation: sourceLocation)
    }
}
