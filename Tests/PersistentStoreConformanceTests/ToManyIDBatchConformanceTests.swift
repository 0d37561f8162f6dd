import Foundation
import Persistence
import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteStore
import PersistenceStore
import Synchronization
import Testing

/// The to-many IDs of many sources read at once: the store's `destinationIDs(of:from:)` for
/// many sources, and a context reading a fetched object's to-many IDs together with its
/// fetched siblings' (`ToManyIDBatches`). The answers are the one-source reads', in order,
/// and what a batch kept gives way to what was saved, merged, refreshed or changed since.
@Suite struct ToManyIDBatchConformanceTests {
    /// The relationships read: through an inverse to-one, a many-to-many from either side,
    /// and an ordered to-many from either side.
    static let relationships = [
        ("Author", "books"), ("Book", "tags"), ("Tag", "books"), ("Shelf", "books"), ("Book", "shelves"),
    ]

    /// `destinationIDs(of:from:)` for many sources: each source's IDs as the one-source read
    /// gives them, in the same order; a source given twice is answered once.
    @Test(arguments: StoreFactories.all)
    func destinationIDsOfManySourcesAreEachSourcesInOrder(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let objects: [String: [ManagedObject]] = [
            "Author": library.objects.authors, "Book": library.objects.books, "Tag": library.objects.tags,
            "Shelf": library.objects.shelves,
        ]
        for (entity, name) in Self.relationships {
            let sources = try #require(objects[entity])
            let relationship = try #require(sources[0].entity.relationships.first { $0.name == name })
            let ids = sources.map(\.objectID)
            let bySource = try library.store.destinationIDs(of: relationship, from: ids + ids.prefix(2))
            for source in ids {
                let expected = try library.store.destinationIDs(of: relationship, from: source)
                #expect(bySource[source] ?? [] == expected, "\(entity).\(name) of \(source)")
            }
            #expect(try library.store.destinationIDs(of: relationship, from: [ObjectID]()).isEmpty)
        }
    }

    /// A context reading the to-many IDs of fetched objects one by one (read in batches with
    /// their siblings) gets what the store's one-source read gives, in the relationship's
    /// order: an ordered to-many keeps its stored order.
    @Test(arguments: StoreFactories.all)
    func toManyIDsOfFetchedObjectsAreTheStoresInOrder(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let context = Self.freshContext(library)
        for (entity, name) in Self.relationships {
            let fetched = try context.fetch(FetchRequest(entityName: entity, sortDescriptors: [SortKey("n")]))
            #expect(fetched.count > 1)
            let relationship = try #require(fetched[0].entity.relationships.first { $0.name == name })
            // From the last object back, then again from the first: either way each answer
            // is the object's own.
            for object in fetched.reversed() + fetched {
                let expected = try library.store.destinationIDs(of: relationship, from: object.objectID)
                #expect(object.objectIDs(forRelationshipNamed: name) == expected, "\(entity).\(name) of \(object.objectID)")
            }
        }
        let shelf = try #require(
            try context.fetch(FetchRequest(entityName: "Shelf", sortDescriptors: [SortKey("n")])).first)
        #expect(
            shelf.objectIDs(forRelationshipNamed: "books") == library.objects.shelves[0].objects(forKey: "books").map(\.objectID),
            "the shelf's stored order")
    }

    /// A sibling whose tags another context changed and saved, after this context read them
    /// in a batch: once this context merges the save, the sibling's IDs are the new ones.
    @Test(arguments: StoreFactories.all)
    func aSiblingsIDsAreTheNewOnesOnceAnotherContextsSaveIsMerged(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let reader = Self.freshContext(library)
        let books = try reader.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("n")]))
        _ = books[0].objectIDs(forRelationshipNamed: "tags")
        let sibling = books[1]
        let heard = Mutex<[ContextDidSave]>([])
        let subscription = reader.persistentStoreCoordinator.saves.subscribe { save in
            heard.withLock { $0.append(save) }
        }
        defer { subscription.cancel() }
        let newTags = try Self.retag(sibling.objectID, in: library)
        let save = try #require(heard.withLock { $0.last })
        reader.mergeChanges(fromContextDidSave: save)
        #expect(sibling.objectIDs(forRelationshipNamed: "tags") == newTags)
        // An object of the batch the save did not touch still reads its own tags.
        let untouched = books[2]
        #expect(
            untouched.objectIDs(forRelationshipNamed: "tags")
                == (try library.store.destinationIDs(of: Self.tags(of: untouched), from: untouched.objectID)))
    }

    /// A sibling refreshed after another context saved new tags reads the new ones; so does
    /// the same book fetched again after a reset.
    @Test(arguments: StoreFactories.all)
    func aRefreshedOrResetSiblingReadsTheStoreAnew(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let reader = Self.freshContext(library)
        let books = try reader.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("n")]))
        _ = books[0].objectIDs(forRelationshipNamed: "tags")
        let refreshed = books[1]
        let newTags = try Self.retag(refreshed.objectID, in: library)
        reader.refresh(refreshed, mergeChanges: false)
        #expect(refreshed.objectIDs(forRelationshipNamed: "tags") == newTags)

        _ = books[0].objectIDs(forRelationshipNamed: "tags")
        let later = try Self.retag(books[3].objectID, in: library)
        reader.reset()
        let again = try reader.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("n")]))
        #expect(again[3].objectIDs(forRelationshipNamed: "tags") == later)
    }

    /// This context's own edit of a sibling's tags wins over what a batch read, before and
    /// after it saves them, whether it changed the relationship or its inverse.
    @Test(arguments: StoreFactories.all)
    func thisContextsOwnEditsWinOverABatch(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let context = Self.freshContext(library)
        let books = try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("n")]))
        let tags = try context.fetch(FetchRequest(entityName: "Tag", sortDescriptors: [SortKey("n")]))
        _ = books[0].objectIDs(forRelationshipNamed: "tags")
        // The relationship itself.
        try books[1].setValue([tags[3]], forKey: "tags")
        #expect(books[1].objectIDs(forRelationshipNamed: "tags") == [tags[3].objectID])
        // Its inverse: the book's tags are still a fault, with a pending edit.
        let before = books[2].objectIDs(forRelationshipNamed: "tags")
        _ = books[0].objectIDs(forRelationshipNamed: "tags")
        tags[3].addObject(books[4], forKey: "books")
        let expected = try library.store.destinationIDs(of: Self.tags(of: books[4]), from: books[4].objectID) + [tags[3].objectID]
        #expect(Set(books[4].objectIDs(forRelationshipNamed: "tags")) == Set(expected))
        try context.save()
        #expect(books[1].objectIDs(forRelationshipNamed: "tags") == [tags[3].objectID])
        #expect(Set(books[4].objectIDs(forRelationshipNamed: "tags")) == Set(expected))
        #expect(books[2].objectIDs(forRelationshipNamed: "tags") == before)
        // A book whose inverse edit was saved while its tags stayed a fault, read after the save.
        let other = Self.freshContext(library)
        let fetched = try other.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("n")]))
        _ = fetched[0].objectIDs(forRelationshipNamed: "tags")
        let tag = try other.existingObject(with: tags[0].objectID)
        tag.addObject(fetched[5], forKey: "books")
        try other.save()
        #expect(
            fetched[5].objectIDs(forRelationshipNamed: "tags")
                == (try library.store.destinationIDs(of: Self.tags(of: fetched[5]), from: fetched[5].objectID)))
    }

    // MARK: - Helpers

    /// A new context on the library's store: its fetched objects' to-manys are faults.
    static func freshContext(_ library: StoredLibrary) -> ManagedObjectContext {
        ManagedObjectContext(coordinator: library.subject.context.persistentStoreCoordinator, classes: [:])
    }

    /// Gives the book with this ID the last tag alone, in another context of the same store,
    /// and saves; returns the tag IDs it now has.
    static func retag(_ book: ObjectID, in library: StoredLibrary) throws -> [ObjectID] {
        let writer = freshContext(library)
        let object = try writer.existingObject(with: book)
        let tag = try writer.existingObject(with: try #require(library.objects.tags.last).objectID)
        try object.setValue([tag], forKey: "tags")
        try writer.save()
        return [tag.objectID]
    }

    /// The `tags` relationship of `book`'s entity (an ebook's inherited from Book).
    static func tags(of book: ManagedObject) throws -> RelationshipDescription {
        try #require(book.managedObjectContext?.model.schema(for: book.entityName)?.relationship(named: "tags"))
    }
}

/// A loop over many fetched objects reading their to-many IDs reads the store once a batch
/// of siblings, not once an object.
@Suite struct ToManyIDBatchStatementTests {
    /// 1,000 volumes, each with one or two writers of an ordered many-to-many, saved; a new
    /// context fetches them and reads every volume's writer IDs. Returns the fetched volumes'
    /// IDs with what each read, and the context.
    static func readAll(_ context: ManagedObjectContext) throws -> [(ObjectID, [ObjectID])] {
        let volumes = try context.fetch(FetchRequest(entityName: "Volume", sortDescriptors: [SortKey("code")]))
        return volumes.map { ($0.objectID, $0.objectIDs(forRelationshipNamed: "writers")) }
    }

    /// Saves 1,000 volumes with their writers in `context`; returns each volume's writers'
    /// IDs, by volume ID.
    static func stock(_ context: ManagedObjectContext) throws -> [ObjectID: [ObjectID]] {
        let writers = try (0..<50).map { n in
            let writer = try context.insertObject(forEntityName: "Writer")
            writer["name"] = "w\(n)"
            return writer
        }
        var volumes: [ManagedObject] = []
        for n in 0..<1_000 {
            let volume = try context.insertObject(forEntityName: "Volume")
            volume["code"] = String(format: "v%04d", n)
            // The second writer first: the stored order is not key order.
            if n % 3 == 0 { volume.addObject(writers[(n + 7) % 50], forKey: "writers") }
            if n % 10 != 9 { volume.addObject(writers[n % 50], forKey: "writers") }
            volumes.append(volume)
        }
        try context.save()
        return Dictionary(uniqueKeysWithValues: volumes.map { ($0.objectID, $0.objects(forKey: "writers").map(\.objectID)) })
    }

    @Test func readingTheToManyIDsOfAThousandFetchedObjectsIsAFewSQLiteStatements() throws {
        let subject = try StoreFactories.sqliteFile.make(BatchInsertLinkConformanceTests.model())
        let expected = try Self.stock(subject.context)
        let coordinator = subject.context.persistentStoreCoordinator
        let context = ManagedObjectContext(coordinator: coordinator, classes: [:])
        // Every read of this thread inside uses the connection this read holds (a reader
        // of the pool), whose statements are counted.
        let (read, statements) = try coordinator.read { connection in
            let store = try #require(connection as? SQLiteStore)
            return try store.database.countingStatements { try Self.readAll(context) }
        }
        #expect(read.count == 1_000)
        for (volume, writers) in read { #expect(writers == expected[volume], "\(volume)") }
        // One a volume would be 1,000; a batch is 512 volumes.
        #expect(statements < 10, "\(statements) statements")
    }
}
