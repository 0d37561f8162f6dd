import Foundation
import Persistence

/// One change to the catalogue as `books history` tells it: a transaction of the store's
/// persistent history, with what it did to books.
public struct CatalogHistoryEntry: Sendable {
    /// What one transaction did to one book.
    public struct BookChange: Sendable {
        /// Inserted, updated or deleted.
        public var type: PersistentHistoryChangeType
        /// The book's UUID: as it is now, or as the history kept it when the book was deleted
        /// (model version 3 preserves a book's UUID and title after deletion); nil for a book
        /// deleted since whose history keeps neither.
        public var uuid: UUID?
        /// The title as it is now, or as the history kept it for a deleted book.
        public var title: String?
        /// For an update, the fields written (model names, sorted).
        public var properties: [String]
    }

    /// The number of the command's last transaction in the store.
    public var number: Int64
    /// The number of its first: a command that saves in batches (a seed of many books) is one
    /// entry, as `undo` takes it back as one.
    public var firstNumber: Int64
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
        guard let transactions = try wholeHistory() else { return [] }
        // What the history kept of each deleted book, to name it in every entry.
        var kept: [ObjectID: [String: AttributeValue]] = [:]
        for transaction in transactions {
            for change in transaction.changes where change.changeType == .delete {
                if let tombstone = change.tombstone { kept[change.changedObjectID] = tombstone }
            }
        }
        var entries: [CatalogHistoryEntry] = []
        var run: [PersistentHistoryTransaction] = []
        // Newest first; the transactions of one run of a command (its author and context
        // name, which names the run) are one entry.
        func close() {
            guard let last = run.first, let first = run.last else { return }
            defer { run.removeAll() }
            let books = run.reversed().flatMap { $0.changes.filter { $0.changedObjectID.entityName == "Book" } }
            // A command that changed no book but what an import keeps of one (a re-import
            // whose every change the reader's edits kept out) is still one: undo takes it back.
            func keptImport() -> Bool {
                run.contains { $0.changes.contains { $0.changedObjectID.entityName == "ImportedValues" } }
            }
            guard !books.isEmpty || keptImport() else { return }
            entries.append(
                CatalogHistoryEntry(
                    number: last.transactionNumber, firstNumber: first.transactionNumber, timestamp: last.timestamp,
                    command: last.author,
                    undid: last.author == Self.undoAuthor ? Self.undoneNumbers(last.contextName) : [],
                    counts: Dictionary(books.map { ($0.changeType, 1) }, uniquingKeysWith: +),
                    books: books.prefix(details).map { bookChange($0, kept: kept[$0.changedObjectID]) }))
        }
        for transaction in transactions.reversed() {
            if let previous = run.last,
                previous.author != transaction.author || previous.contextName != transaction.contextName
                    || transaction.contextName == nil
            {
                close()
                if entries.count >= limit { break }
            }
            run.append(transaction)
        }
        if entries.count < limit { close() }
        return Array(entries.prefix(limit))
    }

    /// A change to a book, named as the book is now, or as `kept` (its tombstone) says of a
    /// book deleted since.
    /// Every transaction of the catalogue's history, oldest first; nil for a catalogue that
    /// has never tracked it. What `history`, `undo` and `redo` read.
    func wholeHistory() throws -> [PersistentHistoryTransaction]? {
        do {
            return try context.fetchHistory(after: nil as PersistentHistoryToken?)
        } catch PersistentHistoryError.notTracked {
            return nil
        }
    }

    private func bookChange(_ change: PersistentHistoryChange, kept: [String: AttributeValue]?) -> CatalogHistoryEntry.BookChange {
        let book = try? context.existingObject(with: change.changedObjectID) as? Book
        var uuid = book?.uuid, title = book?.title
        if book == nil, let tombstone = kept {
            if case .uuid(let kept)? = tombstone["uuid"] { uuid = kept }
            if case .string(let kept)? = tombstone["title"] { title = kept }
        }
        return CatalogHistoryEntry.BookChange(
            type: change.changeType, uuid: uuid, title: title, properties: (change.updatedProperties ?? []).sorted())
    }
}
