import BookCatalog
import Foundation
import Persistence
import RawSQLite

/// The books every workload uses, from `SyntheticBooks` (book `i` is always the same
/// book), with their distinct authors in order of first appearance.
struct BookData {
    let books: [SeedBook]
    let authorNames: [String]
    /// For each book, the index of its author in `authorNames`.
    let authorIndexes: [Int32]

    init(count: Int) {
        var books: [SeedBook] = []
        books.reserveCapacity(count)
        var names: [String] = []
        var indexByName: [String: Int32] = [:]
        var indexes: [Int32] = []
        indexes.reserveCapacity(count)
        for i in 0..<count {
            let book = SyntheticBooks.book(i)
            books.append(book)
            if let index = indexByName[book.author] {
                indexes.append(index)
            } else {
                indexByName[book.author] = Int32(names.count)
                indexes.append(Int32(names.count))
                names.append(book.author)
            }
        }
        self.books = books
        self.authorNames = names
        self.authorIndexes = indexes
    }

    /// The values as C strings for the raw side, held until this is released.
    func cValues(canonical: Bool) -> CBookValues { CBookValues(self, canonical: canonical) }

    /// Writes the tab-separated file `raw-seed` reads, canonical forms included.
    func writeSeedFile(to path: String) throws {
        var text = "A \(authorNames.count)\n"
        for name in authorNames { text += "\(name)\t\(CanonicalText.fold(name))\n" }
        text += "B \(books.count)\n"
        for (i, book) in books.enumerated() {
            let c = book.color ?? Color(red: 0, green: 0, blue: 0)
            let rgba = String(format: "%02x%02x%02x%02x", c.red, c.green, c.blue, c.alpha)
            text += "\(book.uuid.uuidString)\t\(book.title)\t\(CanonicalText.fold(book.title))\t"
                + "\(book.publishDate.timeIntervalSince1970)\t\(DecimalText.format(book.price))\t\(rgba)\t\(authorIndexes[i])\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// C copies of the books' values for the raw side.
final class CBookValues {
    private(set) var books: [raw_book] = []
    private(set) var authors: [raw_author] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(_ data: BookData, canonical: Bool) {
        func keep(_ text: String) -> UnsafePointer<CChar>? {
            guard let pointer = strdup(text) else { return nil }
            strings.append(pointer)
            return UnsafePointer(pointer)
        }
        authors = data.authorNames.map { name in
            raw_author(name: keep(name), canonical_name: canonical ? keep(CanonicalText.fold(name)) : nil)
        }
        books = data.books.enumerated().map { i, book in
            let c = book.color ?? Color(red: 0, green: 0, blue: 0)
            return raw_book(
                uuid: keep(book.uuid.uuidString), title: keep(book.title),
                canonical_title: canonical ? keep(CanonicalText.fold(book.title)) : nil,
                publish_date: book.publishDate.timeIntervalSince1970,
                price: keep(DecimalText.format(book.price)),
                color: (1, c.red, c.green, c.blue, c.alpha), author: data.authorIndexes[i])
        }
    }

    deinit { for pointer in strings { free(pointer) } }
}
