import BookCatalog
import Foundation
import GRDB
import Persistence

/// Issue #47's app-shaped comparison, Persistence side: the in-code model (`AppModel`), the
/// generated `AppBook` class and its accessors, objects inserted one by one and saved once,
/// typed fetches, every attribute read through the generated properties.
enum AppPersistenceSide {
    nonisolated(unsafe) static var checksum = 0

    static func open(_ path: String) throws -> PersistentContainer {
        try PersistentContainer(
            model: AppModel.model(), storeURL: URL(fileURLWithPath: path), classes: AppBooksModel.classes)
    }

    /// Every attribute of a book, read through its generated properties, folded.
    @inline(__always)
    static func read(_ book: AppBook) -> Int {
        var sum = book.title.utf8.count &+ (book.canonicalTitle?.utf8.count ?? 0)
        sum &+= Int(book.publishDate.timeIntervalSince1970)
        sum &+= book.price.isZero ? 0 : 1
        sum &+= book.color?.count ?? 0
        return sum
    }

    /// A new store, the books inserted one by one as objects, one save. Timed from opening
    /// the new store to the end of the save.
    static func insert(_ data: AppBookData, path: String) throws -> Double {
        try time {
            let container = try open(path)
            let context = container.viewContext
            for seed in data.books {
                let book = try context.insert(AppBook.self)
                book.title = seed.title
                book.canonicalTitle = seed.canonicalTitle
                book.publishDate = seed.publishDate
                book.price = seed.price
                book.color = seed.color
            }
            try context.save()
        }
    }

    /// The typed fetch on a newly opened container, every attribute of every object read.
    /// Timed: the fetch and the reads.
    static func fetch(
        path: String, where predicate: FetchPredicate? = nil, sortedBy sortKeys: [SortKey] = []
    ) throws -> (seconds: Double, rows: Int) {
        let container = try open(path)
        var rows = 0
        let seconds = try time {
            let books = try container.viewContext.fetch(AppBook.self, where: predicate, sortedBy: sortKeys)
            for book in books { checksum &+= read(book) }
            rows = books.count
        }
        return (seconds, rows)
    }

    static func fetchAll(path: String) throws -> (seconds: Double, rows: Int) { try fetch(path: path) }

    /// The books under `price`, newest first.
    static func fetchCheaper(than price: Int, path: String) throws -> (seconds: Double, rows: Int) {
        try fetch(path: path, where: AppBook.price < Decimal(price), sortedBy: [AppBook.publishDate.descending])
    }

    /// The objects whose titles `chosen` holds, fetched (untimed) for an update or delete.
    static func chosen(in container: PersistentContainer, _ chosen: Set<String>) throws -> [AppBook] {
        try container.viewContext.fetch(AppBook.self).filter { chosen.contains($0.title) }
    }

    /// New titles (and canonical titles) and prices on the chosen objects, one save. Timed:
    /// the changes and the save.
    static func update(path: String, changes: [String: AppChange]) throws -> Double {
        let container = try open(path)
        let books = try chosen(in: container, Set(changes.keys))
        let revisions = books.map { changes[$0.title] }
        return try time {
            for (book, change) in zip(books, revisions) {
                guard let change else { continue }
                book.title = change.title
                book.canonicalTitle = change.canonicalTitle
                book.price = change.price
            }
            try container.viewContext.save()
        }
    }

    /// The chosen objects deleted one by one, one save. Timed: the deletes and the save.
    static func delete(path: String, titles: Set<String>) throws -> Double {
        let container = try open(path)
        let books = try chosen(in: container, titles)
        let context = container.viewContext
        return try time {
            for book in books { context.delete(book) }
            try context.save()
        }
    }

    /// The memory child's side: a warm-up fetch of 100 objects, `beforeFetch()`, every object
    /// fetched and read, `afterFetch()` with them held. Returns the number of objects.
    static func fetchAllHeld(path: String, beforeFetch: () -> Void, afterFetch: () -> Void) throws -> Int {
        let container = try open(path)
        _ = try container.viewContext.fetch(AppBook.self, limit: 100)
        beforeFetch()
        let books = try container.viewContext.fetch(AppBook.self)
        for book in books { checksum &+= read(book) }
        afterFetch()
        withExtendedLifetime(books) {}
        return books.count
    }
}

/// A revision of one book in the update workload.
struct AppChange {
    var title: String
    var canonicalTitle: String
    var price: Decimal
}

/// Issue #47's app-shaped comparison, GRDB side: a `DatabasePool` (WAL) configured with
/// `synchronous = FULL`, the table made as a GRDB migration makes it, `AppGRDBBook` records
/// inserted one by one in one write transaction, fetched with the query interface.
enum AppGRDBSide {
    nonisolated(unsafe) static var checksum = 0

    static func open(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return try DatabasePool(path: path, configuration: configuration)
    }

    @inline(__always)
    static func read(_ book: AppGRDBBook) -> Int {
        var sum = book.title.utf8.count &+ (book.canonicalTitle?.utf8.count ?? 0)
        sum &+= Int(book.publishDate.timeIntervalSince1970)
        sum &+= book.price.isZero ? 0 : 1
        sum &+= book.color?.count ?? 0
        return sum
    }

    /// A new store, its table created, the books inserted one by one as records, one
    /// transaction. Timed from opening the new store to the commit.
    static func insert(_ data: AppBookData, path: String) throws -> Double {
        try time {
            let pool = try open(path)
            try pool.write { db in
                try AppGRDBBook.createTable(db)
                for seed in data.books {
                    var book = AppGRDBBook(
                        title: seed.title, canonicalTitle: seed.canonicalTitle, publishDate: seed.publishDate,
                        price: seed.price, color: seed.color)
                    try book.insert(db)
                }
            }
        }
    }

    static func fetch(path: String, _ request: QueryInterfaceRequest<AppGRDBBook>) throws -> (seconds: Double, rows: Int) {
        let pool = try open(path)
        var rows = 0
        let seconds = try time {
            let books = try pool.read { db in try request.fetchAll(db) }
            for book in books { checksum &+= read(book) }
            rows = books.count
        }
        return (seconds, rows)
    }

    static func fetchAll(path: String) throws -> (seconds: Double, rows: Int) { try fetch(path: path, AppGRDBBook.all()) }

    /// The books under `price` (compared as REAL: the Decimal is stored as TEXT), newest first.
    static func fetchCheaper(than price: Int, path: String) throws -> (seconds: Double, rows: Int) {
        try fetch(
            path: path,
            AppGRDBBook.filter(cast(Column("price"), as: .real) < price).order(Column("publishDate").desc))
    }

    static func chosen(in pool: DatabasePool, _ chosen: Set<String>) throws -> [AppGRDBBook] {
        try pool.read { db in try AppGRDBBook.fetchAll(db) }.filter { chosen.contains($0.title) }
    }

    /// The chosen records changed and each updated in its changed columns, one transaction.
    static func update(path: String, changes: [String: AppChange]) throws -> Double {
        let pool = try open(path)
        var books = try chosen(in: pool, Set(changes.keys))
        let revisions = books.map { changes[$0.title] }
        return try time {
            try pool.write { db in
                for i in books.indices {
                    guard let change = revisions[i] else { continue }
                    books[i].title = change.title
                    books[i].canonicalTitle = change.canonicalTitle
                    books[i].price = change.price
                    try books[i].update(db, columns: ["title", "canonicalTitle", "price"])
                }
            }
        }
    }

    /// The chosen records deleted by key with one `deleteAll(_:keys:)`, one transaction.
    static func delete(path: String, titles: Set<String>) throws -> Double {
        let pool = try open(path)
        let keys = try chosen(in: pool, titles).compactMap(\.id)
        return try time {
            try pool.write { db in _ = try AppGRDBBook.deleteAll(db, keys: keys) }
        }
    }
}
