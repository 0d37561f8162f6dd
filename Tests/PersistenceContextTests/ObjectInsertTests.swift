import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// Inserting objects as an app does it (one by one, values set through the typed setters,
/// one save), on the faster paths of issue #47: each insert copies its entity's template
/// slots, the typed setters are specialised in the caller's module, and a save lets go of
/// the state it kept on each inserted object.
@Suite struct ObjectInsertTests {
    private func context(_ store: TemporaryStore) throws -> ManagedObjectContext {
        try PersistentContainer(model: everyTypeModel(), storeURL: store.url).viewContext
    }

    /// Every insert starts from the entity's defaults, whatever an earlier insert set in
    /// place in its own copy of the template.
    @Test func insertedObjectsStartWithTheirOwnDefaults() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let first = try context.insertObject(forEntityName: "Item")
        #expect(first.value(forKey: "code", as: String.self) == "none")
        first.setAttribute("first", forKey: "code", at: 14)
        first.setAttribute("scratch", forKey: "str", at: 6)
        first.setAttribute(Decimal(string: "1.5"), forKey: "dec", at: 3)
        let second = try context.insertObject(forEntityName: "Item")
        #expect(second.value(forKey: "code", as: String.self) == "none")
        #expect(second.value(forKey: "str", as: String.self) == nil)
        #expect(second.attributeValue(at: 3).isNull)
        second.setAttribute("second", forKey: "code", at: 14)
        #expect(first.value(forKey: "code", as: String.self) == "first")
        #expect(first.value(forKey: "dec", as: Decimal.self) == Decimal(string: "1.5"))

        // A to-many starts empty in each object, and an edit of one stays its own.
        let ann = try context.insertObject(forEntityName: "Author")
        ann["name"] = "Ann"
        let bo = try context.insertObject(forEntityName: "Author")
        bo["name"] = "Bo"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "One"
        book.setObject(ann, forKey: "author")
        #expect(ann.objects(forKey: "books").count == 1)
        #expect(bo.objects(forKey: "books").isEmpty)
        try context.save()
        #expect(try store.strings(["code"], of: "Item", everyTypeModel()) == [["first"], ["second"]])
        let third = try context.insertObject(forEntityName: "Item")
        #expect(third.value(forKey: "code", as: String.self) == "none")
    }

    /// A save gives each inserted object its key in a box the object makes when it needs
    /// one; once the save is over, nothing is left in it, and it goes, so that objects kept
    /// after a large insert do not each hold an empty box.
    @Test func aSavedInsertKeepsNoSaveStateBehind() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let items = try (0..<3).map { index in
            let item = try context.insertObject(forEntityName: "Item")
            item.setAttribute("code \(index)", forKey: "code", at: 14)
            return item
        }
        try context.save()
        for item in items {
            #expect(item.objectID.primaryKey != nil)
            #expect(item.extras == nil)
            #expect(item.savingKey == nil)
        }
        // The box is still made when something needs it, and kept while it holds anything.
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = "Ann"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "One"
        book.setObject(author, forKey: "author")
        try context.save()
        #expect(try store.count("Book", everyTypeModel(), where: "author.name == 'Ann'") == 1)
    }

    /// The typed setter, inlined into the caller, records undo, tracks a saved object's
    /// change and tells the object, as the named setter does.
    @Test func aTypedSetIsUndoneAndTrackedAsANamedSetIs() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let item = try context.insertObject(forEntityName: "Item")
        item.setAttribute("a", forKey: "str", at: 6)
        item.setAttribute(Int64(3), forKey: "i64", at: 2)
        try context.save()
        context.undoManager = UndoManager()
        item.setAttribute("b", forKey: "str", at: 6)
        item.setAttribute(nil as Int64?, forKey: "i64", at: 2)
        #expect(item.isUpdated)
        #expect(item.changedValues().keys.sorted() == ["i64", "str"])
        context.undo()
        #expect(item.value(forKey: "str", as: String.self) == "a")
        #expect(item.value(forKey: "i64", as: Int64.self) == 3)
        #expect(!item.isUpdated)
    }

    /// A typed fetch, specialised in the caller's module, gives the registered class's
    /// objects, the same ones the context holds.
    @Test func aTypedFetchGivesTheRegisteredClassesObjects() throws {
        let store = TemporaryStore()
        let context = try PersistentContainer(
            model: everyTypeModel(), storeURL: store.url, classes: ["Item": InsertedItem.self]
        ).viewContext
        let item = try context.insert(InsertedItem.self)
        item.setAttribute("x", forKey: "code", at: 14)
        try context.save()
        let fetched = try context.fetch(InsertedItem.self)
        #expect(fetched.count == 1)
        #expect(fetched.first === item)
        #expect(try context.fetch(FetchDescriptor<InsertedItem>()).first === item)
        #expect(throws: FetchError.self) { try context.fetch(OtherItem.self) }
    }
}

private final class InsertedItem: ManagedObject {}
private final class OtherItem: ManagedObject {}
