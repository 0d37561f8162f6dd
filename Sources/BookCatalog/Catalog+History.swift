import Foundation
import Persistence

/// One change to the catalogue as `books history` tells it: a transaction of the store's
/// persistent history, with what it did to books.
public struct CatalogHistoryEntry: Sendable {
    /// What one transaction did to one book.
    public struct BookChange: Sendable {
        /// Inserted, updated or deleted.
        public var type: PersistentHistoryChangeType
        /// The book's UUID and title as it is now; nil for a book deleted since (the history
        /// keeps no values of a deleted book: the model preserves none after deletion).
        public var uuid: UUID?
        /// The title as it is now, if the book is still in the catalogue.
        public var title: String?
        /// For an update, the fields written (model names, sorted).
        public var properties: [String]
    }

    /// The transaction's number in the store.
    public var number: Int64
    /// When it was committed.
    public var timestamp: Date
    /// The command that made it (`books edit`), as its `transactionAuthor` says; nil for a
    /// write by a program that names none.
    public var command: String?
    /// For an undo, the transactions it reversed.
    public var undid: [Int64]
    /// How many books it inserted, updated and deleted.
    public var counts: [PersistentHistoryChangeType: Int]
    /// What it did to its first books, in the order it wrote them (at most the `details`
    /// asked for).
    public var books: [BookChange]
}

extension Catalog {
    /// The name a command's saves are recorded under (`transactionAuthor`): `books edit`.
    public static func historyAuthor(command: String) -> String { "books \(command)" }

    /// The last `limit` transactions of the catalogue's persistent history that changed books,
    /// newest first, each with its first `details` books; empty for a catalogue that has
    /// never tracked its history (one that no command has changed since this release).
    ///
    /// - Throws: ``CatalogHistoryUnavailableError`` for a store Core Data wrote without
    ///   recording its history; a store error when the history cannot be read.
    public func history(limit: Int, details: Int = 3) throws -> [CatalogHistoryEntry] {
        try requireHistory(for: "show")
        let transactions: [PersistentHistoryTransaction]
        do {
            transactions = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        } catch PersistentHistoryError.notTracked {
            return []
        }
        var entries: [CatalogHistoryEntry] = []
        for transaction in transactions.reversed() where entries.count < limit {
            let books = transaction.changes.filter { $0.changedObjectID.entityName == "Book" }
            guard !books.isEmpty else { continue }
            entries.append(
                CatalogHistoryEntry(
                    number: transaction.transactionNumber, timestamp: transaction.timestamp,
                    command: transaction.author,
                    undid: transaction.author == Self.undoAuthor ? Self.undoneNumbers(transaction.contextName) : [],
                    counts: Dictionary(books.map { ($0.changeType, 1) }, uniquingKeysWith: +),
                    books: books.prefix(details).map { bookChange($0) }))
        }
        return entries
    }

    private func bookChange(_ change: PersistentHistoryChange) -> CatalogHistoryEntry.BookChange {
        let book = try? context.existingObject(with: change.changedObjectID) as? Book
        return CatalogHistoryEntry.BookChange(
            type: change.changeType, uuid: book?.uuid, title: book?.title,
            properties: (change.updatedProperties ?? []).sorted())
    }
}
