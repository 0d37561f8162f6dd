import Foundation
import Observation
import Synchronization
import Testing

import BookCatalog
import Persistence

/// The catalogue's generated `Book` is observable: a view of a book's month updates when its
/// publish date changes, as in Core Data's sample app.
@Suite struct BookObservationTests {
    final class Changes: Sendable {
        private let count = Mutex(0)
        func record() { count.withLock { $0 += 1 } }
        var fired: Int { count.withLock { $0 } }
    }

    static func observe(_ read: () -> Void) -> Changes {
        let changes = Changes()
        withObservationTracking(read) { changes.record() }
        return changes
    }

    static func date(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    /// A saved book published in March 2020, in an in-memory catalogue.
    static func savedBook() throws -> (Catalog, Book) {
        let catalog = try Catalog(storeURL: nil)
        catalog.context.isObservationEnabled = true
        let book = try catalog.context.insert(Book.self)
        book.title = "Cien años de soledad"
        book.uuid = UUID()
        book.publishDate = try date("2020-03-15T12:00:00Z")
        try catalog.context.save()
        return (catalog, book)
    }

    @Test func theMonthIDNotifiesWhenThePublishDateChanges() throws {
        let (_, book) = try Self.savedBook()
        let month = Self.observe { _ = book.publishMonthID }
        #expect(book.publishMonthID == "2020003")
        book.title = "Another title"
        #expect(month.fired == 0)
        book.publishDate = try Self.date("2021-07-01T12:00:00Z")
        #expect(month.fired == 1)
        #expect(book.publishMonthID == "2021007")
    }

    @Test func theMonthIDIsTheDecimalTextOfYearTimesAThousandPlusMonth() throws {
        let (_, book) = try Self.savedBook()
        for (text, expected) in [
            ("0001-01-01T00:00:00Z", "1001"), ("0000-12-31T00:00:00Z", "12"), ("-0001-06-30T00:00:00Z", "-994"),
            ("9999-12-31T23:59:59Z", "9999012"), ("-0999-01-01T00:00:00Z", "-998999"), ("1970-01-01T00:00:00Z", "1970001"),
        ] {
            book.publishDate = try DateText.parseISO8601(text)
            #expect(book.publishMonthID == expected, "\(text)")
        }
        for value in [0, 7, -7, 10, -10, 1_000_000, Int.max, Int.min, Int.min + 1, 123_456_789_012_345_678] {
            #expect(Book.decimalText(value) == String(value))
        }
    }

    @Test func theMonthIDNotifiesWhenUndoRestoresThePublishDate() throws {
        let (catalog, book) = try Self.savedBook()
        catalog.context.undoManager = UndoManager()
        book.publishDate = try Self.date("2021-07-01T12:00:00Z")
        let month = Self.observe { _ = book.publishMonthID }
        catalog.context.undo()
        #expect(month.fired == 1)
        #expect(book.publishMonthID == "2020003")
    }

    @Test func aDerivedValueComputedAtSaveNotifies() throws {
        let (catalog, book) = try Self.savedBook()
        let canonical = Self.observe { _ = book.canonicalTitle }
        book.title = "Sólo un título"
        #expect(canonical.fired == 0)
        try catalog.context.save()
        #expect(canonical.fired == 1)
        #expect(book.canonicalTitle == "solo un titulo")
    }
}
