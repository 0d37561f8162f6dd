import BookCatalog
import Foundation
import Persistence

/// Workload 8: Core Data's tools for large fetches, each against the plain fetch a user
/// would otherwise write (in the raw column), on the N-book store, each round in a fresh
/// container. No memory is measured here: in one process the allocator reuses what earlier
/// rounds freed, so growth reads as nothing; peak memory needs a process per side.
extension Bench {
    mutating func fetchToolsWorkload() throws {
        try ensureTemplates()
        let n = options.books
        let store = persistenceTemplate
        let all = FetchRequest(entityName: "Book")

        // 8a. A long list of which a screenful is used.
        var batched = all
        batched.fetchBatchSize = 1000
        let (plainFirst, batchedFirst) = try rounds("fetchBatchSize, first 20") {
            try PersistenceSide.measure(path: store) { context in
                let books = try context.fetch(all)
                for case let book as Book in books.prefix(20) { PersistenceSide.checksum &+= PersistenceSide.read(book) }
                return books
            }
        } persistence: {
            try PersistenceSide.measure(path: store) { context in
                let books = try context.fetch(batched)
                for case let book as Book in books.prefix(20) { PersistenceSide.checksum &+= PersistenceSide.read(book) }
                return books
            }
        }
        record(ResultRow(
            workload: "8a. `fetchBatchSize = 1000`: fetch all, read the first 20 (raw column: plain fetch)", size: "\(n)",
            raw: plainFirst, persistence: batchedFirst, target: .none))

        // 8b. The same result walked to the end.
        let (plainWalk, batchedWalk) = try rounds("fetchBatchSize, walk all") {
            try PersistenceSide.measure(path: store) { context in try PersistenceSide.readAll(try context.fetch(all)) }
        } persistence: {
            try PersistenceSide.measure(path: store) { context in try PersistenceSide.readAll(try context.fetch(batched)) }
        }
        record(ResultRow(
            workload: "8b. `fetchBatchSize = 1000`: fetch all, read every book (raw column: plain fetch)", size: "\(n)",
            raw: plainWalk, persistence: batchedWalk, target: .none))

        // 8c. Faults only: IDs for a later look-up.
        var faults = all
        faults.includesPropertyValues = false
        let (plainIDs, faultIDs) = try rounds("includesPropertyValues") {
            try PersistenceSide.measure(path: store) { context in try context.fetch(all) }
        } persistence: {
            try PersistenceSide.measure(path: store) { context in try context.fetch(faults) }
        }
        record(ResultRow(
            workload: "8c. `includesPropertyValues = false`: fetch all as faults (raw column: plain fetch)", size: "\(n)",
            raw: plainIDs, persistence: faultIDs, target: .none))

        // 8d. Two columns of every book.
        var dictionaries = all
        dictionaries.propertiesToFetch = ["title", "price"]
        let (plainPairs, dictionaryPairs) = try rounds("propertiesToFetch") {
            try PersistenceSide.measure(path: store) { context in
                try context.fetch(all).compactMap { object -> (String, Decimal?)? in
                    guard let book = object as? Book else { return nil }
                    return (book.title, book.price)
                }
            }
        } persistence: {
            try PersistenceSide.measure(path: store) { context in try context.fetchDictionaries(dictionaries) }
        }
        record(ResultRow(
            workload: "8d. `propertiesToFetch` title, price as dictionaries (raw column: plain fetch, read both)",
            size: "\(n)", raw: plainPairs, persistence: dictionaryPairs, target: .none))

        // 8e. A count while an unsaved book is pending.
        let (countByObjects, countWithoutObjects) = try rounds("count with a change") {
            try PersistenceSide.measure(path: store) { context in
                _ = try context.insert(Book.self)
                return try context.fetch(all).count
            }
        } persistence: {
            try PersistenceSide.measure(path: store) { context in
                _ = try context.insert(Book.self)
                return try context.count(for: all)
            }
        }
        record(ResultRow(
            workload: "8e. `count(for:)` with an unsaved book (raw column: counting fetched objects, as before)",
            size: "\(n)", raw: countByObjects, persistence: countWithoutObjects, target: .none))

        // 8f. Every book's author's name.
        var prefetching = all
        prefetching.relationshipKeyPathsForPrefetching = ["authors"]
        let (faulting, prefetched) = try rounds("prefetching") {
            try PersistenceSide.measure(path: store) { context in try PersistenceSide.readAuthors(try context.fetch(all)) }
        } persistence: {
            try PersistenceSide.measure(path: store) { context in
                try PersistenceSide.readAuthors(try context.fetch(prefetching))
            }
        }
        record(ResultRow(
            workload: "8f. `relationshipKeyPathsForPrefetching` author, read each name (raw column: faulting authors)",
            size: "\(n)", raw: faulting, persistence: prefetched, target: .none,
            note: "\(data().authorNames.count) authors"))
        if PersistenceSide.checksum == 42 { print("") }  // keeps the reads from being optimised away
    }
}

extension PersistenceSide {
    /// Folds what the fetch-tool rows read, so that the reads are not optimised away.
    nonisolated(unsafe) static var checksum = 0

    /// Runs `body` in a fresh container's view context and returns its wall time, the
    /// result it returns held to the end.
    static func measure(path: String, _ body: (ManagedObjectContext) throws -> Any) throws -> Double {
        let container = try open(path)
        var kept: Any?
        let seconds = try time { kept = try body(container.viewContext) }
        withExtendedLifetime(kept) {}
        return seconds
    }

    /// Every field of a book, as workload 2 reads them, folded.
    static func read(_ book: Book) -> Int {
        var sum = Int(book.uuid.uuid.0) &+ book.title.utf8.count
        sum &+= (book.canonicalTitle?.utf8.count ?? 0) &+ Int(book.publishDate?.timeIntervalSince1970 ?? 0)
        sum &+= book.price?.isZero ?? true ? 0 : 1
        sum &+= Int(book.color?.red ?? 0)
        return sum
    }

    /// Reads every book; returns how many there were.
    static func readAll(_ books: [ManagedObject]) throws -> Int {
        for case let book as Book in books { checksum &+= read(book) }
        return books.count
    }

    /// Reads each book's author's name; returns how many books there were.
    static func readAuthors(_ books: [ManagedObject]) throws -> Int {
        for case let book as Book in books { checksum &+= book.authors.first?.name.utf8.count ?? 0 }
        return books.count
    }
}
