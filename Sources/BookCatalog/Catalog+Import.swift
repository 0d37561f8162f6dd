import Foundation
import Persistence

/// What an import did: books added, books updated, and books the file gives exactly as the
/// catalogue already has them.
public struct ImportResult: Sendable, Equatable {
    /// Books new to the catalogue.
    public var added = 0
    /// Books already in it (by UUID, else by ISBN) that the file changed.
    public var updated = 0
    /// Books already in it that the file gives as they are.
    public var unchanged = 0
}

extension Catalog {
    /// Adds the file's books and updates those the catalogue already has, in one save.
    ///
    /// A book is already in the catalogue when one has its UUID, or else its ISBN; it is
    /// updated in the fields the file gives (``BookRecord/provided``), keeping its UUID.
    /// Tags are found by their canonical name ("SciFi" is the tag "scifi" if that exists)
    /// and made when new; a tag no book has any more is deleted. Every lookup is made
    /// before anything changes, so each is one indexed query.
    ///
    /// The catalogue's object-trump merging would fold a book whose ISBN another book has
    /// into that book, so ISBNs are checked here: an ISBN another book of the catalogue has
    /// is refused, and so is a file whose two entries name the same book (one by UUID, the
    /// other by ISBN). On any failure nothing is saved and the context is as it was.
    ///
    /// - Throws: `CatalogInputError` naming the entry and the field (exit 65);
    ///   `ValidationError` if the model refuses a value.
    @discardableResult
    public func importBooks(_ file: CatalogImport) throws -> ImportResult {
        // 1. Find each entry's book, and refuse ISBNs other books have.
        var targets: [Book?] = []
        var claimedBy: [ObjectIdentifier: String] = [:]
        for entry in file.entries {
            let record = entry.record
            var book = try record.uuid.flatMap { try existingBook(uuid: $0) }
            if book == nil, let isbn = record.isbn { book = try bookWithISBN(isbn) }
            if let book {
                if let first = claimedBy.updateValue(entry.place, forKey: ObjectIdentifier(book)) {
                    throw CatalogInputError(
                        field: entry.place, value: record.title,
                        reason: "\(first) is the same book (\(book.uuid.uuidString)), found by its UUID or ISBN")
                }
            }
            if let isbn = record.isbn, let holder = try bookWithISBN(isbn), holder !== book {
                throw CatalogInputError(
                    field: "\(entry.place): isbn", value: isbn,
                    reason: "the book \(holder.uuid.uuidString) already has this ISBN")
            }
            targets.append(book)
        }
        // 2. Apply every entry, then save once.
        var authors = try authorsByName()
        var tags = try tagsByCanonicalName()
        var result = ImportResult()
        let now = Date()
        do {
            for (entry, existing) in zip(file.entries, targets) {
                let book = try existing ?? context.insert(Book.self)
                let before = existing.map { BookRecord(book: $0, author: $0.author?.name ?? "") }
                apply(entry.record, to: book, isNew: existing == nil, now: now, authors: &authors, tags: &tags)
                if before == nil {
                    result.added += 1
                } else if before == BookRecord(book: book, author: book.author?.name ?? "") {
                    result.unchanged += 1
                } else {
                    result.updated += 1
                }
            }
            try context.save()
        } catch {
            context.rollback()
            throw error
        }
        return result
    }

    /// Sets the fields `record` provides on `book`; a new book gets a UUID (the record's or
    /// a new one) and its date added (the record's or `now`).
    private func apply(
        _ record: BookRecord, to book: Book, isNew: Bool, now: Date, authors: inout [String: Author],
        tags: inout [String: Tag]
    ) {
        let provided = record.provided
        if isNew { book.uuid = record.uuid ?? UUID() }
        book.title = record.title
        if book.author?.name != record.author { book.author = author(named: record.author, in: &authors) }
        book.publishDate = record.publishDate
        book.datePrecision = record.datePrecision.rawValue
        if isNew || provided.contains(.price) { book.price = record.price }
        if provided.contains(.color) { book.color = record.color }
        if provided.contains(.isbn) { book.isbn = record.isbn }
        if provided.contains(.language) { book.language = record.language }
        if provided.contains(.rating) { book.rating = record.rating }
        if provided.contains(.status) { book.status = record.status?.rawValue }
        if provided.contains(.notes) { book.notes = record.notes }
        if let added = record.dateAdded, provided.contains(.dateAdded) {
            book.dateAdded = added
        } else if book.dateAdded == nil {
            book.dateAdded = now
        }
        if provided.contains(.tags) { setTags(record.tags, of: book, tags: &tags) }
    }
}
