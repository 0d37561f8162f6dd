import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// The contract's **IDs** and **Errors** clauses, the metadata, `hasEverStoredObjects`, and
/// what a fresh store holds.
@Suite struct StoreIdentityConformanceTests {
    /// IDs: `idScope` gives the scope every ID of the entity shares, so an ID the store made
    /// equals one made for the same row; `identifier` is in every ID and tells stores apart.
    @Test(arguments: StoreFactories.all)
    func idsMadeFromTheScopeEqualTheStoresIDs(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let store = library.store
        #expect(!store.identifier.isEmpty)
        let first = store.idScope(entityName: "Book", rootName: "Book")
        let second = store.idScope(entityName: "Book", rootName: "Book")
        #expect(
            ObjectID(scope: first, key: .permanent(1))
                == ObjectID(scope: second, key: .permanent(1)))
        for id in try store.objectIDs(for: FetchRequest(entityName: "Book")) {
            let made = ObjectID(
                scope: store.idScope(entityName: id.entityName, rootName: "Book"), key: id.key)
            #expect(made == id)
            #expect(id.storeIdentifier == store.identifier)
            #expect(try store.row(for: made)?.objectID == id)
        }
        let other = try factory.make(ConformanceModel.make())
        #expect(other.store.identifier != store.identifier, "two stores have two identifiers")
        let theirs = ObjectID(
            scope: other.store.idScope(entityName: "Book", rootName: "Book"), key: .permanent(1))
        #expect(theirs != ObjectID(scope: first, key: .permanent(1)))
    }

    /// IDs: a store opened again keeps its identifier, so IDs made before find their rows.
    @Test(arguments: StoreFactories.reopenable)
    func identifierAndIDsSurviveReopening(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let identifier = library.store.identifier
        let ids = try library.store.objectIDs(
            for: FetchRequest(entityName: "Book", sortDescriptors: [SortKey("n")]))
        try library.subject.reopen()
        #expect(library.store.identifier == identifier)
        #expect(
            try ids.map { try library.store.row(for: $0)?.serial } == ids.indices.map { Int64($0) })
    }

    /// Metadata: a value stored under a key reads back, a second value replaces it, and an
    /// unknown key reads nil.
    @Test(arguments: StoreFactories.all)
    func applicationMetadataRoundTrips(_ factory: StoreFactory) throws {
        let subject = try factory.make(ConformanceModel.make())
        let store = subject.store
        #expect(try store.applicationMetadata(forKey: "seeded") == nil)
        try store.setApplicationMetadata("yes", forKey: "seeded")
        try store.setApplicationMetadata("łódź 🎉 \u{0} end", forKey: "note")
        #expect(try store.applicationMetadata(forKey: "seeded") == "yes")
        try store.setApplicationMetadata("", forKey: "seeded")
        #expect(try store.applicationMetadata(forKey: "seeded") == "")
        #expect(try store.applicationMetadata(forKey: "note") == "łódź 🎉 \u{0} end")
        #expect(try store.applicationMetadata(forKey: "never") == nil)
    }

    /// Metadata: values stored are what a store opened again reads.
    @Test(arguments: StoreFactories.reopenable)
    func applicationMetadataSurvivesReopening(_ factory: StoreFactory) throws {
        let subject = try factory.make(ConformanceModel.make())
        try subject.store.setApplicationMetadata("2", forKey: "schemaOfMyApp")
        try subject.reopen()
        #expect(try subject.store.applicationMetadata(forKey: "schemaOfMyApp") == "2")
    }

    /// `hasEverStoredObjects`: false before an entity's first save, true once a key was
    /// given out, even after every object of it was deleted, and after a reopen.
    @Test(arguments: StoreFactories.all)
    func hasEverStoredObjectsOutlivesTheObjects(_ factory: StoreFactory) throws {
        let subject = try factory.make(ConformanceModel.make())
        #expect(try !subject.store.hasEverStoredObjects(entityName: "Tag"))
        let tags = try (0..<3).map { try subject.insert("Tag", ["n": Int64($0)]) }
        try subject.context.save()
        #expect(try subject.store.hasEverStoredObjects(entityName: "Tag"))
        for tag in tags { subject.context.delete(tag) }
        try subject.context.save()
        #expect(try subject.store.count(for: FetchRequest(entityName: "Tag")) == 0)
        #expect(
            try subject.store.hasEverStoredObjects(entityName: "Tag"), "after every tag was deleted"
        )
        #expect(try !subject.store.hasEverStoredObjects(entityName: "Shelf"))
        if factory.keepsObjectsWhenReopened {
            try subject.reopen()
            #expect(try subject.store.hasEverStoredObjects(entityName: "Tag"), "after a reopen")
            #expect(try !subject.store.hasEverStoredObjects(entityName: "Shelf"), "after a reopen")
        }
    }

    /// `model`, `isReadOnly`, reads: a fresh store holds the model it was opened with, is
    /// writable, and fetches nothing.
    @Test(arguments: StoreFactories.all)
    func aFreshStoreIsEmptyAndWritable(_ factory: StoreFactory) throws {
        let model = ConformanceModel.make()
        let subject = try factory.make(model)
        #expect(subject.store.model === model)
        #expect(!subject.store.isReadOnly)
        for entity in ["Author", "Book", "Tag", "Shelf", "Sample"] {
            #expect(try subject.store.count(for: FetchRequest(entityName: entity)) == 0)
            #expect(try subject.store.objectIDs(for: FetchRequest(entityName: entity)).isEmpty)
        }
    }

    /// Errors: a file that is not a store of the factory's kind is refused with a
    /// `PersistentStoreFailure` of kind `.notAStore` that names it, and left as it was.
    @Test(arguments: StoreFactories.openingFiles)
    func aFileThatIsNotAStoreIsRefusedAsNotAStore(_ factory: StoreFactory) throws {
        let openFile = try #require(factory.openFile)
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("conformance-not-a-store-\(UUID().uuidString).txt")
        let contents = Data(
            String(repeating: "This is a shopping list, not a store.\n", count: 200).utf8)
        try contents.write(to: url)
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
        }
        do {
            let store = try openFile(ConformanceModel.make(), url)
            try? store.close()
            Issue.record("a text file opened as a store")
        } catch let failure as any PersistentStoreFailure {
            #expect(failure.failureKind == .notAStore, "\(failure)")
            #expect(
                failure.path == url.path || "\(failure)".contains(url.lastPathComponent),
                "\(failure)")
        } catch {
            Issue.record("refused with \(type(of: error)), not a PersistentStoreFailure: \(error)")
        }
        #expect(try Data(contentsOf: url) == contents, "the file is left as it was")
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    /// Errors: another app's database of the store's own kind (an SQLite file that is not
    /// an SQLite store, say) is refused with a `PersistentStoreFailure` of kind `.notAStore`,
    /// and left as it was.
    @Test(arguments: StoreFactories.openingForeignDatabases)
    func anotherAppsDatabaseIsRefusedAsNotAStore(_ factory: StoreFactory) throws {
        let openFile = try #require(factory.openFile)
        let writeForeignDatabase = try #require(factory.writeForeignDatabase)
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("conformance-foreign-\(UUID().uuidString).db")
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
        }
        try writeForeignDatabase(url)
        let contents = try Data(contentsOf: url)
        var refusal: (any Error)?
        do {
            let store = try openFile(ConformanceModel.make(), url)
            try? store.close()
        } catch {
            refusal = error
        }
        let error = try #require(refusal, "another app's database opened as a store")
        let failure = error as? any PersistentStoreFailure
        #expect(failure?.failureKind == .notAStore, "refused with \(type(of: error)): \(error)")
        #expect(try Data(contentsOf: url) == contents, "the file is left as it was")
    }
}
