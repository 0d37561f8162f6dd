import BookCatalog
import Foundation
import Persistence
import RawSQLite

/// The books of issue #47's app-shaped comparison: the synthetic books' title, canonical
/// title (folded once, before any side is timed), date, price and color (the catalogue's five
/// stored bytes, as data), the same for every side.
struct AppBookData {
    struct Book {
        var title: String
        var canonicalTitle: String
        var publishDate: Date
        var price: Decimal
        var color: Data?
    }

    let books: [Book]

    init(_ data: BookData) {
        books = data.books.map { seed in
            Book(
                title: seed.title, canonicalTitle: CanonicalText.fold(seed.title), publishDate: seed.publishDate,
                price: seed.price, color: seed.color?.storedBytes)
        }
    }

    /// The values as C strings and bytes for the raw side, held until this is released.
    func cValues() -> CAppBookValues { CAppBookValues(self) }
}

/// C copies of the app books' values.
final class CAppBookValues {
    private(set) var books: [raw_app_book] = []
    private var pointers: [UnsafeMutableRawPointer] = []

    init(_ data: AppBookData) {
        func keep(_ text: String) -> UnsafePointer<CChar>? {
            guard let pointer = strdup(text) else { return nil }
            pointers.append(UnsafeMutableRawPointer(pointer))
            return UnsafePointer(pointer)
        }
        func keep(_ data: Data) -> UnsafePointer<UInt8>? {
            guard let raw = malloc(max(1, data.count)) else { return nil }
            pointers.append(raw)
            let pointer = raw.assumingMemoryBound(to: UInt8.self)
            data.copyBytes(to: pointer, count: data.count)
            return UnsafePointer(pointer)
        }
        books = data.books.map { book in
            raw_app_book(
                title: keep(book.title), canonical_title: keep(book.canonicalTitle),
                publish_date: book.publishDate.timeIntervalSince1970, price: keep(DecimalText.format(book.price)),
                color: book.color.flatMap(keep), color_length: Int32(book.color?.count ?? 0))
        }
    }

    deinit { for pointer in pointers { free(pointer) } }
}
