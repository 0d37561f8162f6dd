import Foundation
import Persistence

/// A book in the catalogue.
///
/// `publishMonthID` is transient, as in Core Data's "Handling Different Data Types" sample:
/// `year * 1000 + month` of `publishDate` (in UTC, see `Catalog.calendarTimeZone`),
/// computed when the book is fetched and whenever `publishDate` changes, never stored.
/// `canonicalTitle` is derived by the model (`canonical:(title)`) and computed on save.
public final class Book: ManagedObject {
    static let nilUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The book's fixed identifier (unique: seeding twice updates rather than duplicates).
    public var uuid: UUID {
        get { value(forKey: "uuid", default: Book.nilUUID) }
        set { self["uuid"] = newValue }
    }

    /// The title as published.
    public var title: String {
        get { value(forKey: "title", default: "") }
        set { self["title"] = newValue }
    }

    /// The title's canonical form, for search; computed on save.
    public var canonicalTitle: String? { value(forKey: "canonicalTitle") }

    /// The first publication day, as midnight UTC.
    public var publishDate: Date {
        get { value(forKey: "publishDate", default: Date(timeIntervalSince1970: 0)) }
        set { self["publishDate"] = newValue }
    }

    /// The publication month as `year * 1000 + month`, e.g. "1967005"; transient.
    public var publishMonthID: String? { value(forKey: "publishMonthID") }

    /// The price, exact.
    public var price: Decimal {
        get { value(forKey: "price", default: 0) }
        set { self["price"] = newValue }
    }

    /// The book's color, if it has one.
    public var color: Color? {
        get { self["color"] as? Color }
        set { self["color"] = newValue }
    }

    /// The book's author.
    public var author: Author? {
        get { object(forKey: "author") as? Author }
        set { setObject(newValue, forKey: "author") }
    }

    /// Computes `publishMonthID` once the stored values are loaded.
    public override func awakeFromFetch() { updatePublishMonthID() }

    /// Keeps `publishMonthID` current when `publishDate` changes.
    public override func didChangeValue(forKey key: String) {
        if key == "publishDate" { updatePublishMonthID() }
    }

    private func updatePublishMonthID() {
        let id = value(forKey: "publishDate", as: Date.self).map { date -> String in
            let (year, month) = DateText.yearMonth(of: date, timeZone: Catalog.calendarTimeZone)
            return String(year * 1000 + month)
        }
        try? setPrimitiveValue(id, forKey: "publishMonthID")
    }
}

/// An author of books in the catalogue.
///
/// Deleting an author is denied while the catalogue has books of theirs (delete rule Deny
/// on `books`): a catalogue should never lose books as a side effect; delete the books
/// first. Deleting a book nullifies its author's side.
public final class Author: ManagedObject {
    /// The author's name (unique).
    public var name: String {
        get { value(forKey: "name", default: "") }
        set { self["name"] = newValue }
    }

    /// The name's canonical form, for search; computed on save.
    public var canonicalName: String? { value(forKey: "canonicalName") }

    /// The author's books.
    public var books: [Book] { objects(forKey: "books").compactMap { $0 as? Book } }
}
