import Foundation
import Persistence

/// A book in the catalogue.
///
/// The model gives `Book` Codegen "Category/Extension": this class is ours, and its typed
/// properties (`title`, `uuid`, `publishDate`, `price`, `color`, `author`, the derived
/// `canonicalTitle` and the transient `publishMonthID`; since model version 2 also `isbn`,
/// `language`, `datePrecision`, `dateAdded`, `notes`, `rating`, `status` and `tags`) and keys
/// (`Book.title`) are generated from the current version of `Books.xcdatamodeld` by the
/// PersistenceCodegen build plugin into `Books+Generated.swift`. `Author` and `Tag` are
/// "Class Definition": entirely generated.
///
/// Version 3 gives a book an ordered to-many `authors` (the to-one `author` of versions 1
/// and 2, renamed; a migration keeps each book's author as its first), makes `publishDate`
/// and `price` optional (unknown), and adds `series`, `seriesNumber`, `publisher`, `pages`,
/// `format`, `dateRead`, `readCount` and `review`. `byline` is the authors' names as a
/// listing shows them ("A, B & C"), kept by the catalogue whenever `authors` changes
/// (``Catalog/setAuthors(_:of:authors:)``): a search (through its derived, indexed
/// `canonicalByline`) and a sort by author need one value per book, and a store sorts and
/// searches through to-one key paths only, as Core Data does.
///
/// Version 2's values follow rules the model cannot state, checked by ``BookInput`` where a
/// user gives them: `isbn` is an ISBN-13 with a valid check digit (an ISBN-10 is converted),
/// `datePrecision` a ``DatePrecision`` (none means a known day), `status` a
/// ``ReadingStatus``, `language` a BCP 47 tag.
///
/// `publishMonthID` is transient, as in Core Data's "Handling Different Data Types" sample:
/// `year * 1000 + month` of `publishDate` (in UTC, see `Catalog.calendarTimeZone`), never
/// stored. As in the sample, it is computed when first read and again after `publishDate`
/// changes (`computedTransients`), not for every fetched book: listing books without months
/// computes none. `canonicalTitle` is derived by the model (`canonical:(title)`) and computed
/// on save.
public final class Book: ManagedObject {
    /// `publishMonthID` is computed on demand from `publishDate`.
    public override class var computedTransients: [String: [String]] { ["publishMonthID": ["publishDate"]] }

    /// The position of `publishDate` in the current model version's `Book`, the one the
    /// generated `publishDate` getter reads (a test keeps the two the same).
    ///
    /// Read by position because looking the name up in a dictionary for every book shows in
    /// grouping a large catalogue by month. Under a model version with another
    /// position the value is still found, by name.
    package static let publishDatePosition = 13

    /// `publishMonthID`: `year * 1000 + month` of `publishDate` as text; no value without a
    /// date. Given typed, so that grouping every book by month boxes no month as `Any`.
    public override func computeTransientAttributeValue(forKey key: String) -> AttributeValue? {
        guard key == "publishMonthID" else { return nil }
        guard let date = value(at: Self.publishDatePosition, forKey: "publishDate", as: Date.self) else { return .null }
        let (year, month) = DateText.yearMonth(of: date, timeZone: Catalog.calendarTimeZone)
        return .string(Self.decimalText(year * 1000 + month))
    }

    /// The authors' names, first author first.
    public var authorNames: [String] { authors.map(\.name) }

    /// Names as a byline: "A", "A & B", "A, B & C".
    public static func byline(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " & " + last
    }

    /// `String(value)`, written digit by digit into the string's own bytes (a month ID's
    /// seven fit inline, with no allocation): `String(_:)` goes through `description` and a
    /// string buffer, for every book grouped by month.
    package static func decimalText(_ value: Int) -> String {
        var digits = value.magnitude
        var count = 1
        while digits >= 10 {
            digits /= 10
            count += 1
        }
        if value < 0 { count += 1 }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var rest = value.magnitude
            for index in stride(from: count - 1, through: value < 0 ? 1 : 0, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            if value < 0 { buffer[0] = UInt8(ascii: "-") }
            return count
        }
    }
}
