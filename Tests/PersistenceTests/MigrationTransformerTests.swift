import Foundation
import Testing

import Persistence

/// A transformable attribute whose value transformer changes between versions. The name is
/// not part of the version hash, so the change is found through the version the store
/// records; its values are re-encoded old → new, or the migration is refused.
@Suite struct MigrationTransformerTests {
    /// Encodes a String as `<prefix>:<string>`; refuses bytes without its prefix.
    struct PrefixTransformer: ValueTransforming {
        let prefix: String

        func transformedValue(_ value: any Sendable) throws -> Data {
            guard let string = value as? String else { throw ValueTransformerError(attribute: "?", transformerName: prefix, reason: "not a String") }
            return Data((prefix + ":" + string).utf8)
        }

        func reverseTransformedValue(_ data: Data) throws -> any Sendable {
            let text = String(decoding: data, as: UTF8.self)
            guard text.hasPrefix(prefix + ":") else {
                throw ValueTransformerError(attribute: "?", transformerName: prefix, reason: "no '\(prefix):' prefix")
            }
            return String(text.dropFirst(prefix.count + 1))
        }
    }

    /// Names unique to one test, registered as prefix transformers (`register`), so tests
    /// running in parallel never share the registry's entries.
    final class Names {
        let old = "Old-\(UUID().uuidString)"
        let new = "New-\(UUID().uuidString)"

        func register(_ names: String...) {
            for name in names { ValueTransformers.register(PrefixTransformer(prefix: name), forName: name) }
        }

        deinit {
            ValueTransformers.unregister(name: old)
            ValueTransformers.unregister(name: new)
        }
    }

    static func model(_ version: String, transformer: String, external: Bool = false, extra: Bool = false) -> ManagedObjectModel {
        ManagedObjectModel(versionIdentifier: version) {
            Entity("Item") {
                Attribute("name", .string)
                Attribute("payload", .transformable, transformer: transformer, allowsExternalStorage: external)
                if extra { Attribute("note", .string) }
            }
        }
    }

    static func fill(_ store: TemporaryStore, _ model: ManagedObjectModel, _ payloads: [String?]) throws {
        let container = try PersistentContainer(model: model, storeURL: store.url)
        for (index, payload) in payloads.enumerated() {
            let item = try container.viewContext.insertObject(forEntityName: "Item")
            item["name"] = "item \(index + 1)"
            item["payload"] = payload
        }
        try container.viewContext.save()
    }

    static func payloads(_ store: TemporaryStore) throws -> [String?] {
        try store.rows("SELECT payload FROM Item ORDER BY _id").map {
            if case .blob(let data) = $0[0] { return String(decoding: data, as: UTF8.self) }
            return $0[0].textValue
        }
    }

    @Test func aChangedTransformerReencodesEveryStoredValue() throws {
        let names = Names()
        names.register(names.old, names.new)
        let v1 = Self.model("1", transformer: names.old), v2 = Self.model("2", transformer: names.new)
        let store = TemporaryStore()
        try Self.fill(store, v1, ["red", nil, "blue"])
        let plans = try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1, v2]).plans()
        #expect(plans.map(\.description) == [
            "Migration from model version 1 to 2:\n  Item.payload: value transformer changes from '\(names.old)' to "
                + "'\(names.new)': every stored value is re-encoded",
        ])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1, v2])
        let items = try container.viewContext.fetch(FetchRequest(entityName: "Item", sortDescriptors: [SortKey("name")]))
        #expect(items.map { $0["payload"] as? String } == ["red", nil, "blue"])
        #expect(try Self.payloads(store) == ["\(names.new):red", nil, "\(names.new):blue"])
        #expect(try store.rows("SELECT value FROM _metadata WHERE key = 'modelVersion'")[0][0].textValue == "2")
        try container.viewContext.closeStore()
        // Done once: the store now records version 2.
        #expect(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1, v2]).plans().isEmpty)
    }

    /// v2 only changes the transformer (same version hashes as v1), v3 adds an attribute:
    /// a store written with v1 is read as v1's (the version it records), not as v2's.
    @Test func theRecordedVersionPicksTheSourceAmongVersionsWithEqualHashes() throws {
        let names = Names()
        names.register(names.old, names.new)
        let v1 = Self.model("1", transformer: names.old), v2 = Self.model("2", transformer: names.new)
        let v3 = Self.model("3", transformer: names.new, extra: true)
        let store = TemporaryStore()
        try Self.fill(store, v1, ["red"])
        let plans = try StoreMigrator(storeURL: store.url, destination: v3, versions: [v1, v2, v3]).migrate()
        #expect(plans.map(\.sourceVersionName) == ["1"])
        #expect(plans[0].steps.map(\.kind) == [.addAttribute, .changeTransformer])
        #expect(try Self.payloads(store) == ["\(names.new):red"])
    }

    @Test func aMissingTransformerIsRefusedNamingItAndTheStoreIsUntouched() throws {
        let names = Names()
        names.register(names.old)
        let v1 = Self.model("1", transformer: names.old), v2 = Self.model("2", transformer: names.new)
        let store = TemporaryStore()
        try Self.fill(store, v1, ["red"])
        let before = try Data(contentsOf: store.url)
        let migrator = StoreMigrator(storeURL: store.url, destination: v2, versions: [v1, v2])
        #expect(try migrator.plans().first?.steps.map(\.kind) == [.changeTransformer])
        for dryRun in [true, false] {
            let error = try #require(throws: MigrationError.self) {
                if dryRun { _ = try migrator.dryRun() } else { try migrator.migrate() }
            }
            #expect(error.kind == .missingValueTransformer)
            #expect(error.description == "The store \(store.url.path) can't be migrated (Item.payload): its value "
                + "transformer changes from '\(names.old)' to '\(names.new)', but no transformer is registered under "
                + "'\(names.new)', so the stored values can't be re-encoded; register it with "
                + "ValueTransformers.register(_:forName:) before migrating; nothing was changed")
        }
        #expect(try Data(contentsOf: store.url) == before)
        #expect(!FileManager.default.fileExists(atPath: StoreMigrator.backupURL(for: store.url).path))
    }

    @Test func bytesTheOldTransformerCannotDecodeRollBackNamingTheObject() throws {
        let names = Names()
        names.register(names.old, names.new)
        let v1 = Self.model("1", transformer: names.old), v2 = Self.model("2", transformer: names.new)
        let store = TemporaryStore()
        try Self.fill(store, v1, ["red", "green", "blue"])
        let database = try store.file.connection(mode: .mustExist)
        try database.execute("UPDATE Item SET payload = X'6A756E6B' WHERE _id = 2")
        try database.close()
        let before = try Data(contentsOf: store.url)
        let error = try #require(throws: MigrationError.self) {
            try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1, v2]).migrate()
        }
        #expect(error.kind == .invalidData)
        #expect(error.description.contains(
            "(Item.payload): Item 2 holds bytes that the old transformer '\(names.old)' can't decode"), "\(error)")
        #expect(error.description.contains("and the new one can't either;"), "\(error)")
        #expect(error.description.hasSuffix("the migration was rolled back and the store is as it was"))
        #expect(try Data(contentsOf: store.url) == before)
        #expect(try Self.payloads(store)[0] == "\(names.old):red")
    }

    /// A store opened with the new model without migration (equal hashes) holds values of
    /// both encodings: those the new transformer already reads are kept as they are.
    @Test func valuesAlreadyInTheNewEncodingAreKept() throws {
        let names = Names()
        names.register(names.old, names.new)
        let v1 = Self.model("1", transformer: names.old), v2 = Self.model("2", transformer: names.new)
        let store = TemporaryStore()
        try Self.fill(store, v1, ["red"])
        try Self.fill(store, v2.copy(), ["blue"])
        #expect(try Self.payloads(store) == ["\(names.old):red", "\(names.new):blue"])
        try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1, v2]).migrate()
        #expect(try Self.payloads(store) == ["\(names.new):red", "\(names.new):blue"])
    }

    /// A value kept in a file beside the store gets a new file with the new bytes; a dry run
    /// reads the store's files and writes none of its own beside the store.
    @Test func aValueInAnExternalFileIsReencodedIntoANewFile() throws {
        let names = Names()
        names.register(names.old, names.new)
        let v1 = Self.model("1", transformer: names.old, external: true)
        let v2 = Self.model("2", transformer: names.new, external: true)
        let store = TemporaryStore()
        let folder = ExternalDataStore.directory(forStorePath: store.url.path)
        let large = String(repeating: "x", count: 120 * 1024)
        try Self.fill(store, v1, [large, "small"])
        let oldReference = try #require(try store.rows("SELECT payload FROM Item WHERE _id = 1")[0][0].textValue)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        _ = try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1, v2]).dryRun()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == files)
        #expect(try store.rows("SELECT payload FROM Item WHERE _id = 1")[0][0].textValue == oldReference)

        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1, v2])
        let reference = try #require(try store.rows("SELECT payload FROM Item WHERE _id = 1")[0][0].textValue)
        #expect(reference.hasPrefix("external:") && reference != oldReference)
        let file = try #require(ExternalDataStore.Reference(reference)).fileName
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(file))
        #expect(bytes.starts(with: Data("\(names.new):xxx".utf8)))
        #expect(try Self.payloads(store)[1] == "\(names.new):small")
        let items = try container.viewContext.fetch(FetchRequest(entityName: "Item", sortDescriptors: [SortKey("name")]))
        #expect(items.map { ($0["payload"] as? String)?.count } == [large.count, 5])
    }
}
