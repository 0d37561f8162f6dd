import Foundation
import Persistence

extension Catalog {
    /// How many books a collated listing reads back at a time, in its order.
    static let collatedListingBatch = 500

    /// ``forEachBook(matching:order:limit:_:)`` for a listing by text under a collation (see
    /// ``ListingOrder/textCollation``): the order is the user's language's, which no store's
    /// SQL gives, so each part of the listing (books whose key is known, then the others) is
    /// read first as the few values its order needs (``CollatedListingRow``), sorted here,
    /// and its books then read back `collatedListingBatch` at a time in that order.
    ///
    /// Memory holds a row per matching book (its sort keys, title and UUID), not the books:
    /// the same order from every store (SQLite, Core Data's layout, PostgreSQL).
    func forEachCollatedBook(
        matching predicate: FetchPredicate?, order: ListingOrder, collation: TextCollation, limit: Int?,
        _ body: (Book) throws -> Void
    ) throws {
        var remaining = limit ?? Int.max
        for part in order.parts(of: predicate) where remaining > 0 {
            var request = FetchRequest(entityName: "Book")
            request.predicate = part
            var rows: [CollatedListingRow] = []
            try context.forEachDictionary(request, properties: CollatedListingRow.properties) { values in
                if let row = CollatedListingRow(values, key: order.key, collation: collation) { rows.append(row) }
                return true
            }
            let reversed = order.reversed
            rows.sort { CollatedListingRow.precedes($0, $1, reversed: reversed) }
            if rows.count > remaining { rows.removeLast(rows.count - remaining) }
            var start = 0
            while start < rows.count, remaining > 0 {
                let uuids = rows[start..<min(start + Self.collatedListingBatch, rows.count)].map(\.uuid)
                start += uuids.count
                let fetched = try context.fetch(
                    FetchRequest(entityName: "Book", predicate: try FetchPredicate("uuid IN %@", uuids)))
                var books: [UUID: Book] = [:]
                for case let book as Book in fetched { books[book.uuid] = book }
                for uuid in uuids where remaining > 0 {
                    guard let book = books[uuid] else { continue }
                    remaining -= 1
                    try body(book)
                }
            }
        }
    }
}
