import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
@testable import PersistenceContext
@testable import PersistenceStore

/// A book whose transient `monthID` is computed on demand from `pages`, counting how often.
final class PagesLabelBook: ManagedObject {
    var computations = 0

    override class var computedTransients: [String: [String]] { ["monthID": ["pages"]] }

    override func computeTransientValue(forKey key: String) -> Any? {
        guard key == "monthID", let pages = value(forKey: "pages", as: Int64.self) else { return nil }
        computations += 1
        return "pages:\(pages)"
    }
}

/// `PagesLabelBook` giving its label typed (`computeTransientAttributeValue(forKey:)`):
/// `.null` without pages, and the `Any` result for any other key.
final class TypedPagesLabelBook: ManagedObject {
    var computations = 0

    override class var computedTransients: [String: [String]] { ["monthID": ["pages"]] }

    override func computeTransientAttributeValue(forKey key: String) -> AttributeValue? {
        guard key == "monthID" else { return nil }
        computations += 1
        guard let pages = value(forKey: "pages", as: Int64.self) else { return .null }
        return .string("pages:\(pages)")
    }

    override func computeTransientValue(forKey key: String) -> Any? {
        Issue.record("asked for \(key) as Any though it was given typed")
        return nil
    }
}

/// Transients computed on demand (`ManagedObject.computedTransients`): computed at their
/// first read, again after a dependency changes, never counted as changes.
@Suite struct ComputedTransientTests {
    private func fetched() throws -> (PersistentContainer, ManagedObjectContext, [PagesLabelBook]) {
        let container = try PersistentContainer(
            model: BookFixture.model(), storeURL: nil, classes: ["Book": PagesLabelBook.self])
        let context = container.viewContext
        for pages in [74, 120, 300] {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Book of \(pages)"
            book["pages"] = Int64(pages)
        }
        try context.save()
        context.reset()
        let books = try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [.init("pages")]))
        return (container, context, books.compactMap { $0 as? PagesLabelBook })
    }

    @Test func fetchedObjectsComputeNothingUntilTheTransientIsRead() throws {
        let (_, context, books) = try fetched()
        #expect(books.count == 3)
        #expect(books.allSatisfy { $0.computations == 0 })
        #expect(books[0]["monthID"] as? String == "pages:74")
        #expect(books[0]["monthID"] as? String == "pages:74")
        #expect(books[0].computations == 1)
        #expect(books[1].computations == 0)
        // The computed value counts as fetched.
        #expect(!books[0].hasChanges)
        #expect(!context.hasChanges)
        #expect(books[0].committedValues(forKeys: ["monthID"])["monthID"] as? String == "pages:74")
    }

    /// A transient given typed is stored as given (computed once, no change made), `.null`
    /// is no value, and it is computed again after its dependency changes.
    @Test func aTransientGivenTypedIsStoredAsGiven() throws {
        let container = try PersistentContainer(
            model: BookFixture.model(), storeURL: nil, classes: ["Book": TypedPagesLabelBook.self])
        let context = container.viewContext
        for pages in [74, 500] as [Int64?] + [nil] {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Book of \(pages.map(String.init) ?? "none")"
            if let pages { book["pages"] = pages }
        }
        try context.save()
        context.reset()
        let books = try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [.init("title")]))
            .compactMap { $0 as? TypedPagesLabelBook }
        #expect(books.map { $0["monthID"] as? String } == ["pages:500", "pages:74", nil])
        #expect(books.map(\.computations) == [1, 1, 1])
        #expect(!context.hasChanges)
        books[1]["pages"] = Int64(75)
        #expect(books[1]["monthID"] as? String == "pages:75")
        #expect(books[1].computations == 2)
    }

    /// A fetched object keeps room for its transient, so that the value computed at its
    /// first read goes into the object's storage instead of making new storage per object.
    @Test func aComputedValueGoesInPlaceInAFetchedObject() throws {
        let (_, context, books) = try fetched()
        let before = ObjectIdentifier(books[0].slots.storage)
        #expect(books[0]["monthID"] as? String == "pages:74")
        #expect(ObjectIdentifier(books[0].slots.storage) == before)
        context.reset()
        try context.forEach(FetchRequest(entityName: "Book")) { object in
            let storage = ObjectIdentifier(object.slots.storage)
            #expect(object["monthID"] is String)
            #expect(ObjectIdentifier(object.slots.storage) == storage)
            return true
        }
    }

    @Test func changingADependencyRecomputesAtTheNextRead() throws {
        let (_, _, books) = try fetched()
        let book = books[0]
        #expect(book["monthID"] as? String == "pages:74")
        book["pages"] = Int64(75)
        #expect(book.computations == 1)
        #expect(book["monthID"] as? String == "pages:75")
        #expect(book.computations == 2)
        #expect(Set(book.changedValues().keys) == ["pages"])
        // Changing another attribute leaves it alone.
        book["title"] = "Renamed"
        #expect(book["monthID"] as? String == "pages:75")
        #expect(book.computations == 2)
        // No value to compute from: none.
        book["pages"] = nil
        #expect(book["monthID"] == nil)
    }

    @Test func aValueSetByHandStaysUntilADependencyChanges() throws {
        let (_, _, books) = try fetched()
        let book = books[1]
        book["monthID"] = "mine"
        #expect(book["monthID"] as? String == "mine")
        #expect(book.computations == 0)
        #expect(book.hasChanges)
        book["pages"] = Int64(121)
        #expect(book["monthID"] as? String == "pages:121")
    }

    @Test func rollbackAndInsertComputeFromTheCurrentValues() throws {
        let (_, context, books) = try fetched()
        let book = books[2]
        book["pages"] = Int64(301)
        #expect(book["monthID"] as? String == "pages:301")
        context.rollback()
        #expect(book["pages"] as? Int64 == 300)
        #expect(book["monthID"] as? String == "pages:300")
        let inserted = try context.insertObject(forEntityName: "Book")
        #expect(inserted["monthID"] == nil)
        inserted["pages"] = Int64(9)
        #expect(inserted["monthID"] as? String == "pages:9")
    }

    @Test func predicatesAndSectionsReadComputedValues() throws {
        let (_, context, books) = try fetched()
        let predicate = try FetchPredicate("monthID == 'pages:120'")
        #expect(try books.filter { try predicate.evaluate(with: $0) }.map { $0["pages"] as? Int64 } == [120])
        let sections = try context.fetchSections(
            FetchRequest(entityName: "Book", sortDescriptors: [.init("pages")]), sectionKeyPath: "monthID")
        #expect(sections.map(\.name) == ["pages:74", "pages:120", "pages:300"])
        #expect(!context.hasChanges)
    }

    @Test func keysThatAreNotTransientAttributesAreIgnored() throws {
        let model = BookFixture.model()
        try model.freeze()
        let schema = try #require(model.schema(for: "Book"))
        #expect(TransientComputation(ManagedObject.self, schema: schema) == nil)
        #expect(TransientComputation(NotTransientBook.self, schema: schema) == nil)
        let computation = try #require(TransientComputation(PagesLabelBook.self, schema: schema))
        let monthID = try #require(schema.propertyIndex["monthID"])
        let pages = try #require(schema.propertyIndex["pages"])
        #expect(computation.lazyMask == 1 << UInt64(monthID))
        #expect(computation.lazyDependents[pages] == 1 << UInt64(monthID))
    }
}

/// Declares a stored attribute and an unknown key as computed: neither is.
final class NotTransientBook: ManagedObject {
    override class var computedTransients: [String: [String]] { ["title": ["pages"], "nothing": ["pages"]] }
}
