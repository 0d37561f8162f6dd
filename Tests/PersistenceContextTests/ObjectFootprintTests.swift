import Foundation
import PersistenceTestSupport
import Testing

#if canImport(Glibc)
/// glibc's `malloc_usable_size`, which the Glibc module does not export: the bytes a block
/// from `malloc` can hold.
@_silgen_name("malloc_usable_size") private func mallocUsableSize(_ block: UnsafeMutableRawPointer) -> Int
#endif

@testable import Persistence
@testable import PersistenceContext
@testable import PersistenceStore

/// What one fetched object costs in memory (issue #47): the object itself, and its values'
/// storage. Each cut keeps every semantic: the committed values, kept apart only from the
/// first change; a decimal kept in one word, read back bit for bit.
@Suite struct ObjectFootprintTests {
    /// The fixture's store, reset so that every object is read back from its row.
    private func fetchedBooks() throws -> (PersistentContainer, ManagedObjectContext, [ManagedObject]) {
        let (container, context) = try BookFixture.make()
        context.reset()
        let books = try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [.init("uuid")]))
        return (container, context, books)
    }

    #if canImport(Glibc)
    /// A fetched object takes a 112-byte block of glibc's malloc, not 128: its committed
    /// values are a flag while they are the current ones, not two more words.
    @Test func aFetchedObjectFitsA112ByteBlock() throws {
        let (container, _, books) = try fetchedBooks()
        _ = container
        // A block can be larger than asked for (glibc hands out a free block whole rather than
        // leave a remainder too small to use), never smaller: the smallest tells the size.
        let usable = books.map { mallocUsableSize(Unmanaged.passUnretained($0).toOpaque()) }
        #expect(usable.min().map { $0 <= 104 } == true, "\(usable) bytes usable")
    }
    #endif

    /// A fetched object nobody changed keeps no second copy of its values; a change keeps
    /// the committed ones apart (what was fetched stays readable and comparable), and a save
    /// or a rollback makes them one again.
    @Test func committedValuesAreKeptApartOnlyFromTheFirstChange() throws {
        let (container, context, books) = try fetchedBooks()
        _ = container
        let hobbit = try #require(books.first { $0["title"] as? String == "The Hobbit" })
        #expect(hobbit.committedIsCurrent)
        #expect(hobbit.extras == nil)
        #expect(hobbit.committedSlots.map { $0.isIdentical(to: hobbit.slots) } == true)

        hobbit["title"] = "There and Back Again"
        #expect(!hobbit.committedIsCurrent)
        #expect(hobbit.committedValues(forKeys: ["title"])["title"] as? String == "The Hobbit")
        #expect(hobbit.changedValues()["title"] as? String == "There and Back Again")
        #expect(hobbit.hasChanges)

        context.rollback()
        #expect(hobbit["title"] as? String == "The Hobbit")
        #expect(!hobbit.hasChanges)
        #expect(hobbit.committedIsCurrent)
        #expect(hobbit.extras?.committedSlots == nil)

        hobbit["title"] = "There and Back Again"
        try context.save()
        #expect(hobbit.committedIsCurrent)
        #expect(hobbit.extras?.committedSlots == nil)
        #expect(hobbit.committedValues(forKeys: ["title"])["title"] as? String == "There and Back Again")
        #expect(!hobbit.hasChanges)
    }

    /// Resolving a to-one fault of an unchanged object counts as loading, not a change, and
    /// keeps no second copy of its values.
    @Test func resolvingAFaultKeepsTheCommittedValuesOne() throws {
        let (container, context, books) = try fetchedBooks()
        _ = container
        for book in books { _ = book.object(forKey: "author") }
        #expect(books.allSatisfy { $0.committedIsCurrent && $0.extras == nil })
        #expect(!context.hasChanges)
        for book in books { #expect(!book.hasChanges) }
    }

    /// A fetched price reads back as the same decimal through a context (the store's decoder
    /// keeps it compact), and a change to it saves and reads back too.
    @Test func aFetchedPriceReadsBackExactly() throws {
        let (container, context, books) = try fetchedBooks()
        _ = container
        let hobbit = try #require(books.first { $0["title"] as? String == "The Hobbit" })
        #expect(hobbit["price"] as? Decimal == (try DecimalText.parse("19.99")))
        let position = try #require(hobbit.schema.propertyIndex["price"])
        #expect(hobbit.slots[position].kind == .compactDecimal)
        hobbit["price"] = try DecimalText.parse("123456789012345678901234.5")
        try context.save()
        context.reset()
        let again = try #require(
            try context.fetch(FetchRequest(entityName: "Book", predicate: try FetchPredicate("title == %@", "The Hobbit")))
                .first)
        #expect(again["price"] as? Decimal == (try DecimalText.parse("123456789012345678901234.5")))
    }
}
