import Foundation
import PersistenceCoreDataStore
import PersistenceModel
import Testing

/// NSKeyedArchiver's archives: Foundation's property-list classes written and read back,
/// other classes handed to transformers by class name, colors, and hostile archives refused
/// naming the object, class and field.
@Suite struct FormatsKeyedArchiveTests {
    // MARK: - Property-list classes

    @Test func propertyListClassesSurviveARoundTrip() throws {
        let base = try #require(URL(string: "https://example.com/books/"))
        let value = ArchivedValue.dictionary([
            .string("title"): .string("Cien años de soledad"),
            .string("pages"): .integer(417), .string("big"): .unsignedInteger(.max),
            .string("price"): .real(12.5),
            .string("read"): .bool(true), .string("cover"): .data(Data([1, 2, 3])),
            .string("added"): .date(Date(timeIntervalSinceReferenceDate: 700_000_000.25)),
            .string("id"): .uuid(
                try #require(UUID(uuidString: "753753D3-A961-4901-AB05-8CC48B1D3853"))),
            .string("link"): .url(try #require(URL(string: "isbn/0060883286", relativeTo: base))),
            .string("plain"): .url(try #require(URL(string: "file:///tmp/a%20b"))),
            .string("tags"): .array([.string("novel"), .string("novel"), .null]),
            .string("set"): .set([.integer(1), .integer(2)]),
            .string("nested"): .dictionary([.integer(1): .array([])]),
        ])
        let data = try KeyedArchiveEncoder.encode(value)
        let archive = try KeyedArchive(data: data)
        #expect(archive.archiverName == "NSKeyedArchiver")
        #expect(archive.objects.first == .string("$null"))
        #expect(try archive.decodeRoot() == value)
    }

    @Test func theCompiledModelsRootIsAnObjectWithItsClassChain() throws {
        let archive = try KeyedArchive(data: try Inflate.decompress(FormatsFixture.modelCache))
        guard case .object(let model) = try archive.decodeRoot() else {
            Issue.record("the root is not an object")
            return
        }
        #expect(model.classNames == ["NSManagedObjectModel", "NSObject"])
        guard case .object(let entities)? = try archive.decodeField("NSEntities", of: model) else {
            Issue.record("NSEntities is not an object")
            return
        }
        #expect(entities.className == "NSKnownKeysDictionary1")
    }

    @Test func mutableClassesAndTheirFieldsDecode() throws {
        let archive = Self.archive(objects: [
            .dictionary(["NS.string": .string("mutable"), "$class": .uid(2)]),
            .dictionary([
                "$classname": .string("NSMutableString"),
                "$classes": .array([.string("NSMutableString")]),
            ]),
        ])
        #expect(try KeyedArchive.decode(archive) == .string("mutable"))
    }

    // MARK: - Other classes

    @Test func otherClassesGoToTheTransformerRegisteredUnderTheirName() throws {
        let color = ArchivedColor(red: 0.25, green: 0.5, blue: 1, alpha: 0.75)
        let data = try ArchivedColorTransformer().transformedValue(color)
        guard case .object(let object) = try KeyedArchive.decode(data) else {
            Issue.record("a color is not an object")
            return
        }
        #expect(object.classNames == ["UIColor", "NSObject"])
        #expect(try ArchivedColor(object) == color)

        let name = "UIColor"
        ValueTransformers.register(ArchivedColorTransformer(), forName: name)
        defer { ValueTransformers.unregister(name: name) }
        #expect(try KeyedArchive.transformedValue(from: data) as? ArchivedColor == color)
        #expect(
            try KeyedArchive.transformedValue(from: KeyedArchiveEncoder.encode(.string("x")))
                as? String == "x")
    }

    @Test func anObjectWithoutATransformerIsAnErrorNamingItsClass() throws {
        let data = try KeyedArchiveEncoder.encode(
            .object(
                ArchivedObject(classNames: ["MyPoint", "NSObject"], fields: ["x": .integer(1)])))
        do {
            _ = try KeyedArchive.transformedValue(from: data)
            Issue.record("an unknown class was decoded")
        } catch let error as CoreDataFormatError {
            #expect(error.description.contains("MyPoint"), "\(error)")
        }
    }

    @Test func macOSColorsDecodeFromTheirRGBText() throws {
        let rgb = ArchivedObject(
            classNames: ["NSColor", "NSObject"],
            fields: ["NSColorSpace": .integer(1), "NSRGB": .data(Data("0.5 0.25 1\0".utf8))])
        #expect(try ArchivedColor(rgb) == ArchivedColor(red: 0.5, green: 0.25, blue: 1))
        let white = ArchivedObject(
            classNames: ["NSColor"],
            fields: ["NSColorSpace": .integer(3), "NSWhite": .data(Data("0.5 0.5".utf8))])
        #expect(
            try ArchivedColor(white) == ArchivedColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5))
        let cmyk = ArchivedObject(classNames: ["NSColor"], fields: ["NSColorSpace": .integer(5)])
        #expect(throws: CoreDataFormatError.self) { try ArchivedColor(cmyk) }
        let bad = ArchivedObject(
            classNames: ["NSColor"],
            fields: ["NSColorSpace": .integer(2), "NSRGB": .data(Data("red green".utf8))])
        #expect(throws: CoreDataFormatError.self) { try ArchivedColor(bad) }
    }

    @Test func objectsReferringToOthersCannotBeWrittenAlone() {
        let object = ArchivedObject(classNames: ["Thing"], fields: ["other": .uid(3)])
        #expect(throws: CoreDataFormatError.self) {
            try KeyedArchiveEncoder.encode(.object(object))
        }
    }

    // MARK: - Hostile archives

    @Test func anArrayContainingItselfIsACycleNamingItsClass() {
        expectArchiveRefusal(
            Self.archive(objects: [
                .dictionary(["NS.objects": .array([.uid(1)]), "$class": .uid(2)]), Self.arrayClass,
            ]),
            mentioning: ["cycle", "NSArray", "NS.objects"])
    }

    @Test func aUIDOutOfRangeIsRefused() {
        expectArchiveRefusal(
            Self.archive(objects: [
                .dictionary(["NS.objects": .array([.uid(99)]), "$class": .uid(2)]), Self.arrayClass,
            ]),
            mentioning: ["99", "NSArray", "element 0"])
        expectArchiveRefusal(Self.archive(objects: [.string("x")], root: 7), mentioning: ["$top"])
    }

    @Test func fieldsOfTheWrongTypeNameTheClassAndField() {
        expectArchiveRefusal(
            Self.archive(objects: [
                .dictionary(["NS.objects": .string("no"), "$class": .uid(2)]), Self.arrayClass,
            ]),
            mentioning: ["NSArray", "NS.objects", "string"])
        expectArchiveRefusal(
            Self.archive(objects: [
                .dictionary(["NS.uuidbytes": .data(Data([1, 2, 3])), "$class": .uid(2)]),
                .dictionary(["$classname": .string("NSUUID")]),
            ]),
            mentioning: ["NSUUID", "NS.uuidbytes", "3 bytes, not 16"])
        expectArchiveRefusal(
            Self.archive(objects: [
                .dictionary([
                    "NS.keys": .array([.uid(1)]), "NS.objects": .array([]), "$class": .uid(2),
                ]),
                .dictionary(["$classname": .string("NSDictionary")]),
            ]),
            mentioning: ["NSDictionary", "1 keys but 0 values"])
        expectArchiveRefusal(
            Self.archive(objects: [.dictionary(["x": .integer(1)])]), mentioning: ["$class"])
        expectArchiveRefusal(
            Self.archive(objects: [
                .dictionary(["NS.time": .real(.nan), "$class": .uid(2)]),
                .dictionary(["$classname": .string("NSDate")]),
            ]),
            mentioning: ["NSDate", "NS.time", "finite"])
        expectArchiveRefusal(
            BinaryPropertyList.write(.array([])), mentioning: ["archive dictionary"])
    }

    @Test func sharedObjectsThatExpandExponentiallyAreRefused() {
        // Object i is an array holding object i + 1 twice.
        var objects: [PropertyListValue] = (1...60).map { index in
            .dictionary([
                "NS.objects": .array([.uid(UInt64(index + 1)), .uid(UInt64(index + 1))]),
                "$class": .uid(62),
            ])
        }
        objects.append(.string("leaf"))
        objects.append(Self.arrayClass)
        expectArchiveRefusal(Self.archive(objects: objects), mentioning: ["expand"])
    }

    @Test func deepNestingIsRefused() {
        let depth = KeyedArchive.maximumDepth + 5
        var objects: [PropertyListValue] = (1...depth).map { index in
            .dictionary([
                "NS.objects": .array([.uid(UInt64(index + 1))]), "$class": .uid(UInt64(depth + 2)),
            ])
        }
        objects.append(.string("leaf"))
        objects.append(Self.arrayClass)
        expectArchiveRefusal(Self.archive(objects: objects), mentioning: ["deeper"])
    }

    // MARK: - Helpers

    static let arrayClass = PropertyListValue.dictionary([
        "$classname": .string("NSArray"),
        "$classes": .array([.string("NSArray"), .string("NSObject")]),
    ])

    /// An archive of `objects` (numbered from 1, after `$null`), its root object `root`.
    static func archive(objects: [PropertyListValue], root: UInt64 = 1) -> Data {
        BinaryPropertyList.write(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
                "$top": .dictionary(["root": .uid(root)]),
                "$objects": .array([.string("$null")] + objects),
            ]))
    }
}

/// Expects the archive `data` to be refused with a one-line `CoreDataFormatError` containing
/// each of `words`.
func expectArchiveRefusal(
    _ data: Data, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let value = try KeyedArchive.decode(data)
        Issue.record("decoded \(value) instead of refusing", sourceLocation: sourceLocation)
    } catch let error as CoreDataFormatError {
        for word in words {
            #expect(error.description.contains(word), "\(error)", sourceLocation: sourceLocation)
        }
        #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
    } catch {
        Issue.record("threw \(error), not a CoreDataFormatError", sourceLocation: sourceLocation)
    }
}
