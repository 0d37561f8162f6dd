import Foundation
import PersistenceTestSupport
import Testing
import Persistence

@Suite struct DeleteRuleTests {
    /// An author with two books, the first with two chapters, saved.
    private func library(_ rule: DeleteRule, store: TemporaryStore) throws -> ManagedObjectContext {
        let context = try PersistentContainer(model: relationshipModel(authorBooksRule: rule), storeURL: store.url).viewContext
        let author = try context.make("Author", "Le Guin")
        for title in ["Earthsea", "Lathe"] { try context.make("Book", title).setValue(author, forKey: "author") }
        let earthsea = try context.named("Book", "Earthsea")
        for name in ["I", "II"] { earthsea.addObject(try context.make("Chapter", name), forKey: "chapters") }
        try context.save()
        return context
    }

    /// The rows of a join table: the links a relationship left in the file.
    private func count(_ store: TemporaryStore, _ table: String) throws -> Int64 {
        try store.rows("SELECT count(*) FROM \(table)")[0][0].int64Value ?? -1
    }

    @Test func nullifyClearsTheInverseInMemoryAndInTheStore() throws {
        let store = TemporaryStore()
        let context = try library(.nullify, store: store)
        let book = try context.named("Book", "Lathe")
        context.delete(try context.named("Author", "Le Guin"))
        #expect(book.object(forKey: "author") == nil)
        try context.save()
        #expect(try store.count("Book", context.model, where: "author != nil") == 0)
        #expect(try store.count("Book", context.model) == 2)
    }

    @Test func cascadeDeletesTransitivelyThroughColumnsAndJoinTables() throws {
        let store = TemporaryStore()
        let context = try library(.cascade, store: store)
        context.delete(try context.named("Author", "Le Guin"))
        #expect(context.deletedObjects.count == 5, "author, two books, two chapters")
        try context.save()
        for entity in ["Author", "Book", "Chapter"] { #expect(try store.count(entity, context.model) == 0) }
        #expect(try count(store, "Book_chapters") == 0)
    }

    @Test func cascadeIsSafeOnCyclesAndLongChains() throws {
        let model = ManagedObjectModel {
            Entity("Node") {
                Attribute("name", .string)
                Relationship("next", to: "Node", inverse: "previous", deleteRule: .cascade)
                Relationship("previous", to: "Node", inverse: "next", deleteRule: .cascade)
                Relationship("links", to: "Node", inverse: "links", toMany: true, deleteRule: .cascade)
            }
        }
        let store = TemporaryStore()
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        var nodes: [ManagedObject] = []
        for i in 0..<3_000 {
            let node = try context.insertObject(forEntityName: "Node")
            node["name"] = "n\(i)"
            if let last = nodes.last { last.setObject(node, forKey: "next") }
            nodes.append(node)
        }
        nodes[2_999].setObject(nodes[0], forKey: "next")  // a ring
        nodes[10].addObject(nodes[20], forKey: "links")  // and a many-to-many cycle
        try context.save()
        #expect(try store.count("Node", context.model) == 3_000)
        context.delete(nodes[1_500])
        #expect(nodes.allSatisfy { $0.isDeleted })
        try context.save()
        #expect(try store.count("Node", context.model) == 0)
        #expect(try count(store, "Node_links") == 0)
    }

    @Test func denyBlocksTheSaveUntilTheRelationshipIsEmptied() throws {
        let store = TemporaryStore()
        let context = try library(.deny, store: store)
        let author = try context.named("Author", "Le Guin")
        context.delete(author)
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures.map(\.rule) == [.relationshipDeniedDelete])
        #expect(error.description.contains("Author/p1: Author.books (2 objects) must be empty"))
        #expect(try store.count("Author", context.model) == 1, "nothing was written")
        // Still blocked with one book left.
        author.removeObject(try context.named("Book", "Lathe"), forKey: "books")
        #expect(throws: ValidationError.self) { try context.save() }
        author.setObject(nil, forKey: "books")
        try context.save()
        #expect(try store.count("Author", context.model) == 0)
        #expect(try store.strings(["title"], of: "Book", context.model) == [["Earthsea"], ["Lathe"]])
        #expect(try store.count("Book", context.model, where: "author != nil") == 0)
    }

    @Test func denyIsSatisfiedByDeletingTheDestinationsToo() throws {
        let store = TemporaryStore()
        let context = try library(.deny, store: store)
        for title in ["Earthsea", "Lathe"] { context.delete(try context.named("Book", title)) }
        context.delete(try context.named("Author", "Le Guin"))
        try context.save()
        #expect(try store.count("Author", context.model) == 0)
        #expect(try store.count("Chapter", context.model) == 0, "books cascade to chapters")
    }

    @Test func noActionLeavesReferencesThatReadAsNil() throws {
        let store = TemporaryStore()
        do {
            let context = try library(.noAction, store: store)
            let book = try context.named("Book", "Lathe")
            context.delete(try context.named("Author", "Le Guin"))
            #expect(book.object(forKey: "author") != nil, "left as it is until the save")
            try context.save()
            #expect(book.object(forKey: "author") == nil, "a deleted destination reads as nil")
        }
        #expect(try store.rows("SELECT count(*) FROM Book WHERE author = 1") == [[.integer(2)]], "the column still dangles")
        let context = try PersistentContainer(model: relationshipModel(authorBooksRule: .noAction), storeURL: store.url).viewContext
        let book = try context.named("Book", "Lathe")
        let id = try #require(book.objectIDs(forRelationshipNamed: "author").first, "the ID is still recorded")
        #expect(throws: ObjectAccessError.self) { try context.existingObject(with: id) }
        #expect(book.object(forKey: "author") == nil)
    }

    @Test func deletingFromAManyToManyNullifiesTheOtherSide() throws {
        let store = TemporaryStore()
        let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
        let book = try context.make("Book", "B")
        let tags = try (0..<3).map { try context.make("Tag", "t\($0)") }
        for tag in tags { book.addObject(tag, forKey: "tags") }
        try context.save()
        context.delete(tags[1])
        #expect(names(book.objects(forKey: "tags")) == ["t0", "t2"])
        try context.save()
        #expect(try count(store, "Book_tags") == 2)
    }

    @Test func countLimitsAreCheckedAtSave() throws {
        let store = TemporaryStore()
        let context = try PersistentContainer(model: relationshipModel(tagMax: 2), storeURL: store.url).viewContext
        let book = try context.make("Book", "B")
        for i in 0..<3 { book.addObject(try context.make("Tag", "t\(i)"), forKey: "tags") }
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures.map(\.rule) == [.relationshipExceedsMaximumCount])
        #expect(error.description.contains("Book.tags (3 objects) must hold at most 2"))
        book.removeObject(try context.named("Tag", "t0"), forKey: "tags")
        try context.save()
        #expect(try count(store, "Book_tags") == 2)
    }
}
