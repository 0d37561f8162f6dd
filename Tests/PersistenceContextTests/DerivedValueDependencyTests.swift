import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Derived values that read other objects stay current when only the other objects change:
/// the save recomputes them through the relationships' inverses.
@Suite struct DerivedValueDependencyTests {
    /// Authors with a count, a sum and the longest title's pages of their books; books with
    /// their author's name and their shelf's owner's name (two steps).
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string)
                Attribute("bookCount", .integer64, derived: "books.@count")
                Attribute("totalPrice", .decimal, derived: "books.@sum.price")
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("price", .decimal)
                Attribute("authorName", .string, derived: "author.name")
                Attribute("ownerName", .string, derived: "shelf.owner.name")
                Relationship("author", to: "Author", inverse: "books")
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
            Entity("Shelf") {
                Relationship("owner", to: "Owner", inverse: "shelves")
                Relationship("books", to: "Book", inverse: "shelf", toMany: true)
            }
            Entity("Owner") {
                Attribute("name", .string)
                Relationship("shelves", to: "Shelf", inverse: "owner", toMany: true)
            }
        }
    }

    /// A stored author with two books (9.50 and 2.25) on one shelf of Ada's, read back in a
    /// fresh context of the same store so that nothing but the store is in memory.
    static func stored() throws -> (store: TemporaryStore, model: ManagedObjectModel) {
        let store = TemporaryStore()
        let model = model()
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = "Lem"
        let owner = try context.insertObject(forEntityName: "Owner")
        owner["name"] = "Ada"
        let shelf = try context.insertObject(forEntityName: "Shelf")
        try shelf.setValue(owner, forKey: "owner")
        for (title, price) in [("Solaris", "9.50"), ("Cyberiada", "2.25")] {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = title
            book["price"] = Decimal(string: price)
            try book.setValue(author, forKey: "author")
            try book.setValue(shelf, forKey: "shelf")
        }
        try context.save()
        try context.persistentStoreCoordinator.close()
        return (store, model)
    }

    @Test func aBooksPriceChangeRecomputesItsAuthorsSum() throws {
        let (store, model) = try Self.stored()
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let book = try #require(try context.fetch(FetchRequest(entityName: "Book", predicate: FetchPredicate("title == 'Solaris'"))).first)
        book["price"] = Decimal(20)
        try context.save()
        let reader = try store.reader(model)
        let author = try #require(try reader.fetch(FetchRequest(entityName: "Author")).first)
        #expect(author["totalPrice"] as? Decimal == Decimal(string: "22.25"))
        #expect(author["bookCount"] as? Int64 == 2)
    }

    @Test func anAuthorsNameChangeRecomputesItsBooksKeyPath() throws {
        let (store, model) = try Self.stored()
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let author = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
        author["name"] = "Stanisław Lem"
        try context.save()
        let titles = try store.reader(model).fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")]))
        #expect(titles.map { $0["authorName"] as? String } == ["Stanisław Lem", "Stanisław Lem"])
    }

    @Test func aChangeTwoStepsAwayRecomputesTheKeyPath() throws {
        let (store, model) = try Self.stored()
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let owner = try #require(try context.fetch(FetchRequest(entityName: "Owner")).first)
        owner["name"] = "Grace"
        try context.save()
        let books = try store.reader(model).fetch(FetchRequest(entityName: "Book"))
        #expect(books.map { $0["ownerName"] as? String } == ["Grace", "Grace"])
        // Moving a shelf to another owner changes the books' owner name too.
        let other = try context.insertObject(forEntityName: "Owner")
        other["name"] = "Linus"
        let shelf = try #require(try context.fetch(FetchRequest(entityName: "Shelf")).first)
        try shelf.setValue(other, forKey: "owner")
        try context.save()
        let moved = try store.reader(model).fetch(FetchRequest(entityName: "Book"))
        #expect(moved.map { $0["ownerName"] as? String } == ["Linus", "Linus"])
    }

    @Test func addingAndRemovingLinksRecomputesTheAggregates() throws {
        let (store, model) = try Self.stored()
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let author = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
        let book = try context.insertObject(forEntityName: "Book")
        book["price"] = Decimal(1)
        try book.setValue(author, forKey: "author")
        try context.save()
        #expect(author["bookCount"] as? Int64 == 3)
        #expect(author["totalPrice"] as? Decimal == Decimal(string: "12.75"))
        context.delete(book)
        let solaris = try #require(try context.fetch(FetchRequest(entityName: "Book", predicate: FetchPredicate("title == 'Solaris'"))).first)
        try solaris.setValue(nil, forKey: "author")
        try context.save()
        let stored = try #require(try store.reader(model).fetch(FetchRequest(entityName: "Author")).first)
        #expect(stored["bookCount"] as? Int64 == 1)
        #expect(stored["totalPrice"] as? Decimal == Decimal(string: "2.25"))
        #expect(solaris["authorName"] == nil)
    }

    @Test func anUnrelatedChangeWritesNoDependent() throws {
        let (store, model) = try Self.stored()
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let book = try #require(try context.fetch(FetchRequest(entityName: "Book", predicate: FetchPredicate("title == 'Solaris'"))).first)
        book["title"] = "Solaris (1961)"
        let saves = SaveLog()
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectIDsNotification, object: context, queue: nil
        ) { notification in saves.append(notification.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave) }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.save()
        #expect(saves.entries.map { $0?.updatedObjectIDs.map(\.entityName) } == [["Book"]])
    }
}

/// The saves a notification observer heard, kept under a lock.
private final class SaveLog: @unchecked Sendable {
    private let lock = NSLock()
    private var saves: [ContextDidSave?] = []

    func append(_ save: ContextDidSave?) { lock.withLock { saves.append(save) } }
    var entries: [ContextDidSave?] { lock.withLock { saves } }
}
