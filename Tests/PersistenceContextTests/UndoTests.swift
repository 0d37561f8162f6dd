import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// A context's undo manager: undo and redo of inserts, updates, deletes and relationship
/// changes, grouped by event or explicitly, emptied by rollback, across a save, and in a
/// child context.
@Suite struct UndoTests {
    /// Authors with ordered shelves of books, and tags on books.
    static func model() -> ManagedObjectModel {
        let author = EntityDescription(
            name: "Author",
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [
                RelationshipDescription(name: "books", destination: "Book", inverse: "author", isToMany: true, isOrdered: true)
            ])
        let book = EntityDescription(
            name: "Book",
            attributes: [
                AttributeDescription(name: "title", type: .string, isOptional: false),
                AttributeDescription(name: "year", type: .integer32),
            ],
            relationships: [
                RelationshipDescription(name: "author", destination: "Author", inverse: "books"),
                RelationshipDescription(name: "tags", destination: "Tag", inverse: "books", isToMany: true),
            ])
        let tag = EntityDescription(
            name: "Tag",
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [RelationshipDescription(name: "books", destination: "Book", inverse: "tags", isToMany: true)])
        return ManagedObjectModel(entities: [author, book, tag])
    }

    /// A saved library: Lem with "Solaris" and "Eden" (in that order), a tag "sf" on Solaris.
    static func library(_ store: TemporaryStore) throws -> (PersistentContainer, ManagedObject, [ManagedObject], ManagedObject) {
        let container = try PersistentContainer(model: model(), storeURL: store.url)
        let context = container.viewContext
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = "Lem"
        let books = try ["Solaris", "Eden"].map { title in
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = title
            author.addObject(book, forKey: "books")
            return book
        }
        let tag = try context.insertObject(forEntityName: "Tag")
        tag["name"] = "sf"
        books[0].addObject(tag, forKey: "tags")
        try context.save()
        context.undoManager = UndoManager()
        return (container, author, books, tag)
    }

    static func titles(_ objects: [ManagedObject]) -> [String] { objects.compactMap { $0["title"] as? String } }

    @Test func undoRestoresAMixedGroupAndRedoReappliesIt() throws {
        let store = TemporaryStore()
        let (container, author, books, tag) = try Self.library(store)
        let context = container.viewContext
        let undo = try #require(context.undoManager)

        undo.beginUndoGrouping()
        let added = try context.insertObject(forEntityName: "Book")  // insert
        added["title"] = "Fiasco"
        author.addObject(added, forKey: "books")  // to-many add, inverse to-one
        books[0]["year"] = Int32(1961)  // update
        try author.moveObject(at: 0, to: 1, forKey: "books")  // ordered move
        books[0].removeObject(tag, forKey: "tags")  // to-many remove (many-to-many)
        context.delete(books[1])  // delete: nullifies Eden's author and tags
        undo.endUndoGrouping()

        #expect(Self.titles(author.objects(forKey: "books")) == ["Solaris", "Fiasco"])
        #expect(books[1].isDeleted)
        #expect(tag.objects(forKey: "books").isEmpty)

        context.undo()
        #expect(added.managedObjectContext == nil)
        #expect(!context.insertedObjects.contains { $0 === added })
        #expect(Self.titles(author.objects(forKey: "books")) == ["Solaris", "Eden"])
        #expect(books[0]["year"] == nil)
        #expect(!books[1].isDeleted)
        #expect(books[1].object(forKey: "author") === author)
        #expect(tag.objects(forKey: "books").map { $0 === books[0] } == [true])
        #expect(books[0].objects(forKey: "tags").map { $0 === tag } == [true])
        #expect(!context.hasChanges)
        #expect(undo.canRedo)

        context.redo()
        #expect(added.managedObjectContext === context)
        #expect(added.isInserted)
        #expect(added.object(forKey: "author") === author)
        #expect(Self.titles(author.objects(forKey: "books")) == ["Solaris", "Fiasco"])
        #expect(books[0].value(forKey: "year", as: Int32.self) == 1961)
        #expect(books[1].isDeleted)
        #expect(tag.objects(forKey: "books").isEmpty)

        // What redo put back saves as the original changes would have.
        try context.save()
        let reader = try store.reader(Self.model())
        let saved = try reader.fetch(FetchRequest(entityName: "Author"))
        #expect(Self.titles(saved.first?.objects(forKey: "books") ?? []) == ["Solaris", "Fiasco"])
        #expect(try reader.count(for: FetchRequest(entityName: "Book")) == 2)
    }

    @Test func changesBetweenEventsAreSeparateUndoSteps() throws {
        let store = TemporaryStore()
        let (container, _, books, _) = try Self.library(store)
        let context = container.viewContext
        #expect(context.undoManager?.groupsByEvent == true)
        books[0]["title"] = "Solaris (1961)"
        books[0]["year"] = Int32(1961)
        context.processPendingChanges()
        books[0]["title"] = "Solaris (1970)"
        context.undo()
        #expect(books[0]["title"] as? String == "Solaris (1961)")
        #expect(books[0].value(forKey: "year", as: Int32.self) == 1961)
        context.undo()
        #expect(books[0]["title"] as? String == "Solaris")
        #expect(books[0]["year"] == nil)
        #expect(context.undoManager?.canUndo == false)
        context.redo()
        context.redo()
        #expect(books[0]["title"] as? String == "Solaris (1970)")
    }

    @Test func aNewChangeAfterUndoClearsRedo() throws {
        let store = TemporaryStore()
        let (container, _, books, _) = try Self.library(store)
        let context = container.viewContext
        books[0]["title"] = "A"
        context.undo()
        #expect(context.undoManager?.canRedo == true)
        books[0]["title"] = "B"
        #expect(context.undoManager?.canRedo == false)
    }

    @Test func rollbackEmptiesTheUndoStack() throws {
        let store = TemporaryStore()
        let (container, _, books, _) = try Self.library(store)
        let context = container.viewContext
        books[0]["title"] = "Changed"
        _ = try context.insertObject(forEntityName: "Tag")
        context.rollback()
        #expect(context.undoManager?.canUndo == false)
        #expect(books[0]["title"] as? String == "Solaris")
        context.undo()
        #expect(books[0]["title"] as? String == "Solaris")
        #expect(!context.hasChanges)
    }

    @Test func undoingASavedChangeMakesANewUnsavedChange() throws {
        let store = TemporaryStore()
        let (container, author, books, _) = try Self.library(store)
        let context = container.viewContext
        books[0]["title"] = "Solaris (1961)"
        let added = try context.insertObject(forEntityName: "Book")
        added["title"] = "Fiasco"
        context.delete(books[1])
        try context.save()
        #expect(try store.count("Book", Self.model()) == 2)

        context.undo()
        #expect(context.hasChanges)
        #expect(books[0]["title"] as? String == "Solaris")
        #expect(added.isDeleted)  // a saved insert, undone: deleted at the next save
        #expect(books[1].isInserted)  // a saved delete, undone: inserted again
        #expect(books[1].object(forKey: "author") === author)
        try context.save()
        let reader = try store.reader(Self.model())
        let titles = try reader.fetch(FetchRequest(entityName: "Book")).compactMap { $0["title"] as? String }
        #expect(titles.sorted() == ["Eden", "Solaris"])
    }

    @Test func aChildsUndoLeavesTheParentAlone() throws {
        let store = TemporaryStore()
        let (container, _, books, _) = try Self.library(store)
        let parent = container.viewContext
        parent.undoManager = nil
        books[0]["title"] = "Parent's title"
        let child = parent.newChildContext()
        child.undoManager = UndoManager()
        let mine = try child.object(with: books[0].objectID)
        #expect(mine["title"] as? String == "Parent's title")
        mine["title"] = "Child's title"
        child.undo()
        #expect(mine["title"] as? String == "Parent's title")
        #expect(books[0]["title"] as? String == "Parent's title")
        #expect(!child.hasChanges)
        #expect(parent.hasChanges)
    }

    @Test func withoutAnUndoManagerNothingIsRecorded() throws {
        let store = TemporaryStore()
        let (container, _, books, _) = try Self.library(store)
        let context = container.viewContext
        context.undoManager = nil
        books[0]["title"] = "Changed"
        context.undo()
        #expect(books[0]["title"] as? String == "Changed")
    }

    @Test func explicitGroupsNestAndGroupsByEventCanBeTurnedOff() {
        final class Counter { var value = 0 }
        let counter = Counter()
        let undo = UndoManager()
        undo.groupsByEvent = false
        undo.registerUndo(withTarget: counter) { $0.value = -1 }  // outside a group: dropped
        #expect(!undo.canUndo)
        undo.beginUndoGrouping()
        counter.value = 1
        undo.registerUndo(withTarget: counter) { $0.value = 0 }
        undo.beginUndoGrouping()
        counter.value = 2
        undo.registerUndo(withTarget: counter) { $0.value = 1 }
        undo.endUndoGrouping()
        #expect(undo.groupingLevel == 1)
        undo.setActionName("Count")
        undo.endUndoGrouping()
        #expect(undo.undoActionName == "Count")
        undo.undo()
        #expect(counter.value == 0)
        #expect(!undo.canRedo)  // the actions registered no redo
    }
}

extension UndoTests {
    @Test func aChildsSaveIsAnUndoableChangeOfAParentWithAnUndoManager() throws {
        let store = TemporaryStore()
        let (container, _, books, _) = try Self.library(store)
        let parent = container.viewContext
        let child = parent.newChildContext()
        try child.object(with: books[0].objectID)["title"] = "From the child"
        try child.save()
        #expect(books[0]["title"] as? String == "From the child")
        parent.undo()
        #expect(books[0]["title"] as? String == "Solaris")
    }
}
