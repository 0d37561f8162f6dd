import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// A child context is a scratch pad: it reads what its parent holds, its save pushes its
/// changes into the parent without touching the store, and the parent's save writes them.
@Suite struct ChildContextTests {
    static func model() -> ManagedObjectModel {
        let author = EntityDescription(
            name: "Author",
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [
                RelationshipDescription(name: "books", destination: "Book", inverse: "author", isToMany: true)
            ])
        let book = EntityDescription(
            name: "Book",
            attributes: [
                AttributeDescription(name: "title", type: .string, isOptional: false),
                AttributeDescription(name: "year", type: .integer32),
            ],
            relationships: [RelationshipDescription(name: "author", destination: "Author", inverse: "books")])
        return ManagedObjectModel(entities: [author, book])
    }

    /// A store with one saved book, "Dune" by Herbert, in a container.
    static func library(_ store: TemporaryStore) throws -> (PersistentContainer, ManagedObject) {
        let container = try PersistentContainer(model: model(), storeURL: store.url)
        let context = container.viewContext
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = "Herbert"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        book["author"] = author
        try context.save()
        return (container, book)
    }

    /// The stored titles, read by a fresh container.
    static func storedTitles(_ store: TemporaryStore) throws -> [String] {
        let reader = try PersistentContainer(model: model(), storeURL: store.url)
        return try reader.viewContext.fetch(FetchRequest(entityName: "Book")).compactMap { $0["title"] as? String }.sorted()
    }

    @Test func aChildsSaveReachesTheParentButNotTheStoreUntilTheParentSaves() throws {
        let store = TemporaryStore()
        let (container, book) = try Self.library(store)
        let parent = container.viewContext
        let child = parent.newChildContext(name: "editor")
        #expect(child.parent === parent)
        let draft = try child.existingObject(with: book.objectID)
        draft["title"] = "Dune Messiah"
        draft["year"] = Int32(1969)
        let added = try child.insertObject(forEntityName: "Book")
        added["title"] = "Children of Dune"
        added["author"] = draft["author"]
        try child.save()
        #expect(!child.hasChanges)

        // In the parent, unsaved: the store is as it was.
        #expect(book["title"] as? String == "Dune Messiah")
        #expect(parent.hasChanges)
        #expect(parent.insertedObjects.count == 1)
        #expect(try Self.storedTitles(store) == ["Dune"])
        let author = try #require(book["author"] as? ManagedObject)
        #expect((author["books"] as? [ManagedObject])?.count == 2, "the inverse followed in the parent")

        try parent.save()
        #expect(try Self.storedTitles(store) == ["Children of Dune", "Dune Messiah"])
    }

    @Test func aDiscardedChildLeavesTheParentAsItWas() throws {
        let store = TemporaryStore()
        let (container, book) = try Self.library(store)
        let parent = container.viewContext
        do {
            let child = parent.newChildContext()
            try child.existingObject(with: book.objectID)["title"] = "Scratch"
            child.delete(try child.existingObject(with: book.objectID))
            child.rollback()
            #expect(!child.hasChanges)
        }
        #expect(!parent.hasChanges)
        #expect(book["title"] as? String == "Dune")
    }

    @Test func aChildSeesItsParentsUnsavedChanges() throws {
        let store = TemporaryStore()
        let (container, book) = try Self.library(store)
        let parent = container.viewContext
        book["title"] = "Dune (edited in the parent)"
        let inserted = try parent.insertObject(forEntityName: "Book")
        inserted["title"] = "Unsaved in the parent"
        let child = parent.newChildContext()
        let titles = try child.fetch(FetchRequest(entityName: "Book")).compactMap { $0["title"] as? String }.sorted()
        #expect(titles == ["Dune (edited in the parent)", "Unsaved in the parent"])

        parent.delete(book)
        let other = parent.newChildContext()
        let left = try other.fetch(FetchRequest(entityName: "Book")).compactMap { $0["title"] as? String }
        #expect(left == ["Unsaved in the parent"])
    }

    @Test func anInvalidChildSaveReachesNothingAndKeepsItsChanges() throws {
        let store = TemporaryStore()
        let (container, _) = try Self.library(store)
        let parent = container.viewContext
        let child = parent.newChildContext()
        _ = try child.insertObject(forEntityName: "Book")  // no title: required
        #expect(throws: ValidationError.self) { try child.save() }
        #expect(child.hasChanges)
        #expect(!parent.hasChanges)
    }

    @Test func aBackgroundChildOfTheViewContextSavesIntoItThroughItsQueue() async throws {
        let store = TemporaryStore()
        let (container, book) = try Self.library(store)
        let parent = container.viewContext
        let id = book.objectID
        let child = parent.newChildContext(concurrencyType: .privateQueue)
        try await child.perform {
            try child.existingObject(with: id)["year"] = Int32(1965)
            try child.save()
        }
        let year = await parent.perform { (try? parent.existingObject(with: id))?.value(forKey: "year", as: Int32.self) }
        #expect(year == 1965)
    }
}
