import Foundation
import Persistence

/// A book in the catalogue.
///
/// The model gives `Book` Codegen "Category/Extension": this class is ours, and its typed
/// properties (`title`, `uuid`, `publishDate`, `price`, `color`, `author`, the derived
/// `canonicalTitle` and the transient `publishMonthID`) and keys (`Book.title`) are
/// generated from `Books.xcdatamodeld` by the PersistenceCodegen build plugin into
/// `Books+Generated.swift`. `Author` is "Class Definition": entirely generated.
///
/// `publishMonthID` is transient, as in Core Data's "Handling Different Data Types" sample:
/// `year * 1000 + month` of `publishDate` (in UTC, see `Catalog.calendarTimeZone`),
/// computed when the book is fetched and whenever `publishDate` changes, never stored.
/// `canonicalTitle` is derived by the model (`canonical:(title)`) and computed on save.
public final class Book: ManagedObject {
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
