import Foundation
import Persistence

extension Catalog {
    /// ``forEachBook(matching:order:limit:_:)`` for a listing by text under a collation (see
    /// ``ListingOrder/textCollation``): the order is the user's language's, which no store's
    /// SQL gives, so each part of the listing (books whose key is known, then the others) is
    /// read first, each book kept only as its key (``CollatedListingRow``), sorted here, and
    /// its books then read back one at a time by object ID (the primary key) in that order.
    ///
    /// Memory holds a key and an object ID per matching book, not the
    /// books: the same order from every store (SQLite, Core Data's layout, PostgreSQL).
    func forEachCollatedBook(
        matching predicate: FetchPredicate?, order: ListingOrder, collation: TextCollation, limit: Int?,
        _ body: (Book) throws -> Void
    ) throws {
        var remaining = limit ?? Int.max
        for part in order.parts(of: predicate) where remaining > 0 {
            var request = FetchRequest(entityName: "Book")
            request.predicate = part
            var bytes: [UInt8] = []
            var ends: [Int] = []
            var ids: [ObjectID] = []
            try context.forEach(request) { object in
                if let book = object as? Book {
                    CollatedListingRow.key(of: book, for: order.key, collation: collation, into: &bytes)
                    ends.append(bytes.count)
                    ids.append(book.objectID)
                }
                return true
            }
            let positions = CollatedListingRow.sortedPositions(bytes: bytes, ends: ends, reversed: order.reversed)
            bytes = []
            for position in positions where remaining > 0 {
                let id = ids[position]
                // A book deleted by another process since the first read is not listed; any
                // other failure to read it fails the listing.
                let object: ManagedObject
                do { object = try context.existingObject(with: id) } catch is ObjectAccessError { continue }
                guard let book = object as? Book else { continue }
                remaining -= 1
                try body(book)
            }
        }
    }
}
