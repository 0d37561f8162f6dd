import BookCatalog
import Foundation
import Persistence

extension PersistenceSide {
    /// The filtered, sorted fetch of issue #27: the books under `price` (an exact Decimal
    /// comparison in the store), newest first, every attribute read. Timed in a fresh
    /// context, as workload 2.
    static func fetchCheaper(than price: Int, path: String) throws -> (seconds: Double, rows: Int) {
        let container = try open(path)
        let request = FetchRequest(
            entityName: "Book", predicate: try FetchPredicate("price < %@", price),
            sortDescriptors: [SortKey("publishDate", ascending: false)])
        var rows = 0
        let seconds = try time {
            for case let book as Book in try container.viewContext.fetch(request) {
                checksum &+= read(book) &+ book.objectIDs(forRelationshipNamed: "authors").count
                rows += 1
            }
        }
        return (seconds, rows)
    }

    /// The memory child's Persistence side (see `MemoryChild`): a warm-up fetch of 100
    /// books, `beforeFetch()`, every book fetched and every attribute read, then
    /// `afterFetch()` with the books still held. Returns the number of books.
    static func fetchAllHeld(path: String, beforeFetch: () -> Void, afterFetch: () -> Void) throws -> Int {
        let container = try open(path)
        var warmUp = FetchRequest(entityName: "Book")
        warmUp.fetchLimit = 100
        _ = try container.viewContext.fetch(warmUp)
        beforeFetch()
        let books = try container.viewContext.fetch(FetchRequest(entityName: "Book"))
        for case let book as Book in books {
            checksum &+= read(book) &+ book.objectIDs(forRelationshipNamed: "authors").count
        }
        afterFetch()
        withExtendedLifetime(books) {}
        return books.count
    }
}
