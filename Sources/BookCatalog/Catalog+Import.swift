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
    /// and made when new; a tag no book has any more is deleted. The books are looked up
    /// before anything changes, a few hundred UUIDs or ISBNs a query; a field is set only
    /// when its value differs, so a book the file gives as it is stays unchanged.
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
        let byUUID = try books(withValues: file.entries.compactMap(\.record.uuid), forKey: "uuid") { $0.uuid }
        let byISBN = try books(withValues: file.entries.compactMap(\.record.isbn), forKey: "isbn") { $0.isbn }
        var targets: [Book?] = []
        var claimedBy: [ObjectIdentifier: String] = [:]
        for entry in file.entries {
            let record = entry.record
            let book = record.uuid.flatMap { byUUID[$0] } ?? record.isbn.flatMap { byISBN[$0] }
            if let book {
                if let first = claimedBy.updateValue(entry.place, forKey: ObjectIdentifier(book)) {
                    throw CatalogInputError(
                        field: entry.place, value: record.title,
                        reason: "\(first) is the same book (\(book.uuid.uuidString)), found by its UUID or ISBN")
                }
            }
            if let isbn = record.isbn, let holder = byISBN[isbn], holder !== book {
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
        let now = Self.dateAddedNow()
        do {
            for (entry, existing) in zip(file.entries, targets) {
                let book = try existing ?? context.insert(Book.self)
                apply(entry.record, to: book, isNew: existing == nil, now: now, authors: &authors, tags: &tags)
                if existing == nil {
                    result.added += 1
                } else if book.hasChanges {
                    result.updated += 1
                } else {
                    result.unchanged += 1
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
        /// Sets every value of a new book; of a book already there, a value the record
        /// provides that differs, so that an equal one leaves the book unchanged. (A new
        /// book's getters answer a default for a value never set, which a record may equal.)
        func set<Value: Equatable>(_ key: ReferenceWritableKeyPath<Book, Value>, _ value: Value, if field: BookField? = nil) {
            if isNew || (field.map(provided.contains) != false && book[keyPath: key] != value) {
                book[keyPath: key] = value
            }
        }
        if isNew { book.uuid = record.uuid ?? UUID() }
        set(\.title, record.title)
        if isNew || provided.contains(.authors) { setAuthors(record.authors, of: book, authors: &authors) }
        set(\.publishDate, record.publishDate, if: .publishDate)
        set(\.datePrecision, record.publishDate == nil ? nil : record.datePrecision.rawValue, if: .datePrecision)
        set(\.price, record.price, if: .price)
        set(\.color, record.color, if: .color)
        set(\.isbn, record.isbn, if: .isbn)
        set(\.language, record.language, if: .language)
        set(\.rating, record.rating, if: .rating)
        set(\.status, record.status?.rawValue, if: .status)
        set(\.notes, record.notes, if: .notes)
        set(\.series, record.series, if: .series)
        set(\.seriesNumber, record.seriesNumber, if: .seriesNumber)
        set(\.publisher, record.publisher, if: .publisher)
        set(\.pages, record.pages, if: .pages)
        set(\.format, record.format, if: .format)
        set(\.dateRead, record.dateRead, if: .dateRead)
        set(\.readCount, record.readCount, if: .readCount)
        set(\.review, record.review, if: .review)
        if let added = record.dateAdded, provided.contains(.dateAdded) {
            set(\.dateAdded, added)
        } else if book.dateAdded == nil {
            book.dateAdded = now
        }
        if provided.contains(.tags) { setTags(record.tags, of: book, tags: &tags) }
    }

    /// The books whose `key` is one of `values`, by that value; a few hundred values a query.
    func books<Value: Hashable>(
        withValues values: [Value], forKey key: String, _ value: (Book) -> Value?
    ) throws -> [Value: Book] {
        var result: [Value: Book] = [:]
        var start = 0
        while start < values.count {
            let chunk = Array(values[start..<min(values.count, start + 500)])
            let request = FetchRequest(entityName: "Book", predicate: try FetchPredicate("\(key) IN %@", chunk))
            for case let book as Book in try context.fetch(request) {
                if let found = value(book) { result[found] = book }
            }
            start += chunk.count
        }
        return result
    }
}
