import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// `persistence-tool store migrate`, run as the built binary: stdout, stderr, exit codes,
/// and the store file's bytes.
@Suite struct StoreMigrateCommandTests {
    /// A temporary `.xcdatamodeld` with the given versions, and a store written with the
    /// first, holding two books.
    final class Fixture {
        let directory: URL
        let bundle: URL
        let store: URL

        init(_ versions: [(String, ManagedObjectModel)]) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
            bundle = directory.appendingPathComponent("Books.xcdatamodeld")
            store = directory.appendingPathComponent("Books.sqlite")
            for (name, model) in versions {
                try model.write(to: bundle.appendingPathComponent("\(name).xcdatamodel"))
            }
            let first = try ManagedObjectModel(contentsOf: bundle, version: versions[0].0)
            let container = try PersistentContainer(model: first, storeURL: store)
            for title in ["Rayuela", "Ficciones"] {
                let book = try container.viewContext.insertObject(forEntityName: "Book")
                book["name"] = title
            }
            try container.viewContext.save()
            try container.viewContext.storeConnection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            try container.viewContext.closeStore()
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func bytes() throws -> Data { try Data(contentsOf: store) }

        func run(_ extra: [String] = []) throws -> ToolRun {
            try ToolRun(["store", "migrate", store.path, "--model", bundle.path] + extra)
        }
    }

    static let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("name", .string) } }

    @Test func aDryRunPrintsTheStepsAndTheLostValuesAndChangesNothing() throws {
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("year", .integer16, default: "0")
            }
        }
        let fixture = try Fixture([("Books", Self.v1), ("Books2", v2)])
        let before = try fixture.bytes()
        let result = try fixture.run(["--dry-run"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            Migration from model version 1 to 2:
              Book.title: new optional attribute; existing objects have no value
              Book.year: new attribute; existing objects get its default value 0
              DATA LOSS: Book.name: attribute removed: its values will be deleted (if it was renamed to title, give title the renaming identifier 'name' to keep them)
            Values that will be lost: Book.name.
            Dry run: the data fits model version 2; the store was not changed.

            """)
        #expect(result.stderr == "")
        #expect(try fixture.bytes() == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.store.path + ".pre-migration"))
    }

    @Test func migratingKeepsRenamedValuesThenAsecondRunFindsNothingToDo() throws {
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") { Attribute("title", .string, renamingIdentifier: "name") }
        }
        let fixture = try Fixture([("Books", Self.v1), ("Books2", v2)])
        let result = try fixture.run()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Book.title: renamed from name (values kept)\nNo values will be lost.\n"))
        #expect(result.stdout.contains("Migrated \(fixture.store.path) to model version 2."))
        #expect(FileManager.default.fileExists(atPath: fixture.store.path + ".pre-migration"))
        do {
            let migrated = try PersistentContainer(model: v2.copy(), storeURL: fixture.store, readOnly: true).viewContext
            let books = try migrated.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")]))
            #expect(books.map { $0.value(forKey: "title", as: String.self) } == ["Ficciones", "Rayuela"])
        }
        let bytes = try fixture.bytes()
        let again = try fixture.run()
        #expect(again.status == 0)
        #expect(again.stdout == "\(fixture.store.path) is already at model version 2; nothing to migrate.\n")
        #expect(try fixture.bytes() == bytes)
    }

    @Test func aChangeThatCannotBeInferredExits65AndLeavesTheStoreByteForByte() throws {
        let v2 = ManagedObjectModel(versionIdentifier: "2") { Entity("Book") { Attribute("name", .integer64) } }
        let fixture = try Fixture([("Books", Self.v1), ("Books2", v2)])
        let before = try fixture.bytes()
        let result = try fixture.run()
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr == "error: The store \(fixture.store.path) can't be migrated by lightweight migration "
            + "(Book.name): its type changes from String to Integer 64, which needs a mapping model; nothing was changed\n")
        #expect(try fixture.bytes() == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.store.path + ".pre-migration"))
    }

    @Test func dataTheNewVersionRefusesExits65AndLeavesTheStoreByteForByte() throws {
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("name", .string)
                Attribute("shelf", .string, default: "A")
                UniquenessConstraint("shelf")
            }
        }
        let fixture = try Fixture([("Books", Self.v1), ("Books2", v2)])
        let before = try fixture.bytes()
        for extra in [["--dry-run"], []] {
            let result = try fixture.run(extra)
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains("existing objects violate the uniqueness constraint (shelf): objects 1, 2 share shelf = 'A'"), "\(result)")
            #expect(try fixture.bytes() == before)
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.store.path + ".pre-migration"))
    }

    /// A value transformer change alone (equal version hashes) is found through the version
    /// the store records; the tool registers no app transformers, so it shows the step and
    /// refuses, naming the transformer, without touching the store.
    @Test func aTransformerChangeIsShownByADryRunAndRefusedWithoutTheTransformer() throws {
        let old = "OldCover-\(UUID().uuidString)", new = "NewCover-\(UUID().uuidString)"
        ValueTransformers.register(PrefixTransformer(prefix: old), forName: old)
        defer { ValueTransformers.unregister(name: old) }
        func version(_ name: String, _ transformer: String) -> ManagedObjectModel {
            ManagedObjectModel(versionIdentifier: name) {
                Entity("Book") {
                    Attribute("name", .string)
                    Attribute("cover", .transformable, transformer: transformer)
                }
            }
        }
        let fixture = try Fixture([("Books", version("1", old)), ("Books2", version("2", new))])
        let before = try fixture.bytes()
        for extra in [["--dry-run"], []] {
            let result = try fixture.run(extra)
            #expect(result.status == 65, "\(result)")
            #expect(result.stdout == """
                Migration from model version 1 to 2:
                  Book.cover: value transformer changes from '\(old)' to '\(new)': every stored value is re-encoded
                No values will be lost.

                """)
            #expect(result.stderr == "error: The store \(fixture.store.path) can't be migrated (Book.cover): its value "
                + "transformer changes from '\(old)' to '\(new)', but no transformer is registered under '\(old)', so "
                + "the stored values can't be re-encoded; register it with ValueTransformers.register(_:forName:) "
                + "before migrating; nothing was changed\n")
            #expect(try fixture.bytes() == before)
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.store.path + ".pre-migration"))
    }

    /// Optional → required without a default goes through when every object has a value.
    @Test func aRequiredAttributeWithoutDefaultMigratesWhenNoValueIsMissing() throws {
        let v2 = ManagedObjectModel(versionIdentifier: "2") { Entity("Book") { Attribute("name", .string, optional: false) } }
        let fixture = try Fixture([("Books", Self.v1), ("Books2", v2)])
        let result = try fixture.run(["--dry-run"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("  Book.name: becomes required (no default value: refused if an object has no value)\n"))
        #expect(result.stdout.hasSuffix("Dry run: the data fits model version 2; the store was not changed.\n"))
    }

    @Test func aMissingStoreExits66() throws {
        let result = try ToolRun(["store", "migrate", "/nonexistent/Books.sqlite", "--model", "/nonexistent/M.xcdatamodeld"])
        #expect(result.status == 66)
        #expect(result.stderr == "error: There is no store at /nonexistent/Books.sqlite.\n")
    }
}
