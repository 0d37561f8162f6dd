import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite
import Testing

/// The readers of Core Data's binary formats, fed mutated valid inputs by ``Fuzzer``: binary
/// property lists, keyed archives and raw DEFLATE streams. No crash, no hang, every rejection
/// a one-line `CoreDataFormatError`, and every accepted input survives a round trip through
/// the matching writer. Each runs a fifth (a tenth for keyed archives, whose seeds are the
/// largest) of `FUZZ_ITERATIONS`: their inputs are kilobytes, not lines.
extension FuzzTests {
    /// Seeds: the metadata and compiled model of the store Core Data wrote, and values of
    /// every kind written by our own writers.
    static let coreDataSeeds: (plists: [[UInt8]], archives: [[UInt8]], streams: [[UInt8]]) = {
        let folder = FuzzTests.root.appendingPathComponent("Tests/Fixtures/coredata")
        let store = folder.appendingPathComponent("SampleModel_V1.sqlite")
        let modelCache =
            (try? Self.blob(in: store, column: "Z_CONTENT", table: "Z_MODELCACHE")) ?? Data()
        let metadata = (try? Self.blob(in: store, column: "Z_PLIST", table: "Z_METADATA")) ?? Data()
        let modelArchive = (try? Inflate.decompress(modelCache)) ?? Data()
        let sample = PropertyListValue.dictionary([
            "a": .array([.integer(-1), .integer(300), .real(1.5), .bool(true), .null, .uid(2)]),
            "b": .string("Cien años"), "c": .data(Data([0, 1, 2])),
            "d": .date(Date(timeIntervalSinceReferenceDate: 0)),
            "e": .set([.unsignedInteger(.max)]),
            "f": .array((0..<20).map { .string("word \($0)") }),
        ])
        let archive =
            (try? KeyedArchiveEncoder.encode(
                .dictionary([
                    .string("title"): .string("Cien años"),
                    .string("tags"): .array([.string("a"), .null]),
                    .string("when"): .date(Date(timeIntervalSinceReferenceDate: 1)),
                    .string("id"): .uuid(UUID()),
                    .string("url"): .url(URL(fileURLWithPath: "/tmp/x")),
                    .string("set"): .set([.integer(1)]),
                ]))) ?? Data()
        let color =
            (try? KeyedArchiveEncoder.encode(
                .object(ArchivedColor(red: 1, green: 0, blue: 0).archivedObject)))
            ?? Data()
        let plists = [metadata, BinaryPropertyList.write(sample), archive].map { [UInt8]($0) }
        let archives = [modelArchive, archive, color].map { [UInt8]($0) }
        let streams = [
            modelCache,
            (try? Deflate.compress(Data(String(repeating: "abc", count: 200).utf8))) ?? Data(),
        ]
        .map { [UInt8]($0) }
        return (plists, archives, streams)
    }()

    /// A BLOB read from a store with plain SQLite, opened read-only and immutable (nothing
    /// is written beside the fixture).
    private static func blob(in store: URL, column: String, table: String) throws -> Data {
        let database = try Database(path: store.path, mode: .immutable)
        defer { try? database.close() }
        return try database.scalar("SELECT \(column) FROM \(table)").dataValue ?? Data()
    }

    static let binaryTokens: [[UInt8]] = [
        [0x00], [0x08], [0x09], [0x0F], [0x10, 0x01], [0x13], [0x14], [0x23], [0x33],
        [0x4F, 0x10, 0xFF], [0x5F],
        [0x6F, 0x13], [0x80, 0x00], [0x87], [0xA1, 0x00], [0xAF, 0x11, 0xFF, 0xFF],
        [0xD1, 0x00, 0x00], [0xFF],
        Array("bplist00".utf8), Array("$class".utf8), Array("NS.objects".utf8),
        Array("NSArray".utf8),
        [0, 0, 0, 0, 0, 0, 1, 1], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
    ]

    @Test func binaryPropertyListReader() {
        var fuzzer = Fuzzer(
            seeds: Self.coreDataSeeds.plists, tokens: Self.binaryTokens, target: "bplist")
        let report = Fuzzer.run(
            iterations: max(1, Fuzzer.iterations / 5), make: { fuzzer.nextBytes() },
            show: { Data($0).base64EncodedString() }
        ) { bytes in
            let value = try BinaryPropertyList.read(Data(bytes))
            let written = BinaryPropertyList.write(value)
            // Compared as written bytes: a NaN real differs from itself.
            guard BinaryPropertyList.write(try BinaryPropertyList.read(written)) == written else {
                throw FuzzRuleBroken("a property list reads back differently after writing")
            }
            return .accepted
        }
        check(report, "binary property list reader")
    }

    @Test func keyedArchiveDecoder() {
        var fuzzer = Fuzzer(
            seeds: Self.coreDataSeeds.archives, tokens: Self.binaryTokens, target: "keyed archive")
        let report = Fuzzer.run(
            iterations: max(1, Fuzzer.iterations / 10), make: { fuzzer.nextBytes() },
            show: { Data($0).base64EncodedString() }
        ) { bytes in
            let archive = try KeyedArchive(data: Data(bytes))
            let value = try archive.decodeRoot()
            if case .object(let object) = value {
                for key in object.fields.keys.sorted() {
                    _ = try archive.decodeField(key, of: object)
                }
            } else if !Self.containsObjects(value) {
                let written = try KeyedArchiveEncoder.encode(value)
                guard try KeyedArchiveEncoder.encode(KeyedArchive.decode(written)) == written else {
                    throw FuzzRuleBroken("an archived value reads back differently after encoding")
                }
            }
            _ = try? CompiledModel.model(fromArchive: Data(bytes))
            return .accepted
        }
        check(report, "keyed archive decoder")
    }

    /// Keyed archives changed object by object rather than byte by byte, so that inputs stay
    /// valid property lists and reach the decoder: references redirected (out of range, to
    /// themselves, to class descriptions), fields given the wrong type or removed. A fortieth
    /// of `FUZZ_ITERATIONS`: each input is a whole compiled model, written and read.
    @Test func keyedArchiveStructure() throws {
        let seeds = try Self.coreDataSeeds.archives.map { try BinaryPropertyList.read(Data($0)) }
        var random = SplitMix64(seed: Fuzzer.seed ^ 0xA7C4_1FE5)
        let replacements: [PropertyListValue] = [
            .uid(0), .uid(1), .uid(2), .uid(9_999), .uid(.max), .string("x"), .integer(-1),
            .real(.nan), .null,
            .array([.uid(1), .uid(1)]), .array([]), .data(Data([1, 2, 3])), .dictionary([:]),
            .bool(true),
        ]
        let report = Fuzzer.run(
            iterations: max(1, Fuzzer.iterations / 40),
            make: { () -> Data in
                guard
                    case .dictionary(var archive) = seeds[Int(random.next() % UInt64(seeds.count))],
                    case .array(var objects)? = archive["$objects"], !objects.isEmpty
                else { return Data() }
                for _ in 0..<(1 + random.next() % 3) {
                    let index = Int(random.next() % UInt64(objects.count))
                    let replacement = replacements[Int(random.next() % UInt64(replacements.count))]
                    if case .dictionary(var fields) = objects[index], !fields.isEmpty {
                        let keys = fields.keys.sorted()
                        let key = keys[Int(random.next() % UInt64(keys.count))]
                        fields[key] = random.next() % 5 == 0 ? nil : replacement
                        objects[index] = .dictionary(fields)
                    } else {
                        objects[index] = replacement
                    }
                }
                archive["$objects"] = .array(objects)
                return BinaryPropertyList.write(.dictionary(archive))
            },
            show: { $0.base64EncodedString() }
        ) { data in
            let archive = try KeyedArchive(data: data)
            let value = try archive.decodeRoot()
            if case .object(let object) = value {
                for key in object.fields.keys.sorted() {
                    _ = try? archive.decodeField(key, of: object)
                }
            }
            _ = try? CompiledModel.model(fromArchive: data)
            return .accepted
        }
        check(report, "keyed archive structure")
    }

    @Test func inflate() {
        var fuzzer = Fuzzer(
            seeds: Self.coreDataSeeds.streams, tokens: Self.binaryTokens, target: "inflate")
        let report = Fuzzer.run(
            iterations: max(1, Fuzzer.iterations / 5), make: { fuzzer.nextBytes() },
            show: { Data($0).base64EncodedString() }
        ) { bytes in
            let inflated = try Inflate.decompress(Data(bytes), maximumOutputSize: 1 << 20)
            guard try Inflate.decompress(Deflate.compress(inflated)) == inflated else {
                throw FuzzRuleBroken("inflated bytes do not survive deflating")
            }
            return .accepted
        }
        check(report, "inflate")
    }

    private static func containsObjects(_ value: ArchivedValue) -> Bool {
        switch value {
        case .object: return true
        case .array(let elements), .set(let elements):
            return elements.contains(where: containsObjects)
        case .dictionary(let entries):
            return entries.contains { containsObjects($0.key) || containsObjects($0.value) }
        default: return false
        }
    }
}
