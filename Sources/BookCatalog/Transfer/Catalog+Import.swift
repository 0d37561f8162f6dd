import Foundation
import Persistence

extension Catalog {
    /// Adds the file's books and updates those the catalogue already has, in one save.
    ///
    /// A book is already in the catalogue when one has its UUID, or else its ISBN; it is
    /// updated in the fields the file gives (``BookRecord/provided``), keeping its UUID.
    /// Tags are found by their canonical name ("SciFi" is the tag "scifi" if that exists)
    /// and made when new. The books are looked up
    /// before anything changes, a few hundred UUIDs or ISBNs a query; a field is set only
    /// when its value differs, so a book the file gives as it is stays unchanged.
    ///
    /// The catalogue's object-trump merging would fold a book whose ISBN another book has
    /// into that book, so ISBNs are checked here: an ISBN another book of the catalogue has
    /// is refused, and so is a file whose two entries name the same book (one by UUID, the
    /// other by ISBN). On any failure nothing is saved and the context is as it was.
    ///
    /// A book already there is updated only where the file changed since the last import of
    /// its source (``ImportSource``), field by field: the values that import gave are kept
    /// in the catalogue (``ImportedFieldValues``, an `ImportedValues` object a book and
    /// source, saved with the books). A field the file gives as it gave it last time keeps
    /// the catalogue's value, whatever the reader made of it; one the file changed and the
    /// reader did not takes the file's; one both changed, to different values, keeps the
    /// reader's and is reported (``ImportResult/conflicts``), or takes the file's with
    /// `preferringFile`. A book with no values kept for the source (imported before this
    /// release kept them, or never from this source: a sample book, one added by hand) takes
    /// the file's values, as an import always did: there is nothing to tell the reader's
    /// changes by, and the file is what the reader chose to import. Tags merge: the book
    /// gains the file's tags that the last import did not give it (every one, the first time),
    /// and never loses one, so a tag the reader took off stays off and one they added stays.
    ///
    /// Undo takes an import back whole, the kept values with the books: they are objects of
    /// the same save. A book's kept values outlive its deletion, so that undoing the delete
    /// brings back a book whose next import still knows them; an import that adds the book
    /// again replaces them.
    ///
    /// With `dryRun`, the result says what the import would do and nothing is saved: the
    /// context is rolled back as it was.
    ///
    /// - Throws: `CatalogInputError` naming the entry and the field (exit 65);
    ///   `ValidationError` if the model refuses a value.
    @discardableResult
    public func importBooks(
        _ file: ImportFile, preferringFile: Bool = false, dryRun: Bool = false
    ) throws -> ImportResult {
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
        // 2. What the last import of the source gave each book (a new book's UUID may have
        // kept values too, of a deleted book).
        let source = ImportSource(format: file.format)
        let uuids = zip(file.entries, targets).compactMap { entry, book in book?.uuid ?? entry.record.uuid }
        let kept = try importedValues(of: source, forBooks: uuids)
        // 3. Apply every entry, then save once.
        var authors = try authorsByName()
        var tags = try tagsByCanonicalName()
        var result = ImportResult()
        let now = Self.dateAddedNow()
        do {
            for (entry, existing) in zip(file.entries, targets) {
                let book = try existing ?? context.insert(Book.self)
                let stored = existing.flatMap { kept[$0.uuid] }
                let last = stored.map { ImportedFieldValues(json: $0.fieldValues) }
                let fields: Set<BookField>
                if existing == nil {
                    fields = Set(BookField.allCases)
                } else {
                    let merge = ImportMerge(
                        record: entry.record, book: book, lastImported: last, preferringFile: preferringFile)
                    fields = merge.fields
                    result.conflicts += merge.conflicts
                }
                let addedTags = apply(
                    entry.record, to: book, isNew: existing == nil, fields: fields, lastTags: last?.canonicalTags,
                    now: now, authors: &authors, tags: &tags)
                try keep(entry.record, of: book, source: source, last: last, stored: stored ?? kept[book.uuid])
                if existing == nil {
                    result.added += 1
                    result.changes.append(.init(uuid: book.uuid, title: book.title, isNew: true, fields: []))
                } else if book.hasChanges {
                    result.updated += 1
                    let changed = BookField.allCases.filter {
                        (fields.contains($0) && $0 != .datePrecision) || ($0 == .tags && addedTags)
                    }
                    result.changes.append(.init(uuid: book.uuid, title: book.title, isNew: false, fields: changed))
                } else {
                    result.unchanged += 1
                }
            }
            if dryRun {
                context.rollback()
            } else {
                try context.save()
            }
        } catch {
            context.rollback()
            throw error
        }
        return result
    }

    /// Keeps what `record` gives `book` as the values of the last import of `source`: the
    /// fields it provides over those kept before (`last`), in `stored`, or a new object.
    /// Nothing is written when they are the same.
    private func keep(
        _ record: BookRecord, of book: Book, source: ImportSource, last: ImportedFieldValues?, stored: ImportedValues?
    ) throws {
        var values = last ?? ImportedFieldValues()
        values.texts.merge(ImportedFieldValues(record).texts) { _, new in new }
        let json = values.json
        if let stored {
            if stored.fieldValues != json { stored.fieldValues = json }
            return
        }
        let object = try context.insert(ImportedValues.self)
        object.source = source.rawValue
        object.bookUUID = book.uuid
        object.fieldValues = json
    }

    /// The values the last import of `source` gave each of the books of `uuids`, by UUID; a
    /// few hundred UUIDs a query.
    func importedValues(of source: ImportSource, forBooks uuids: [UUID]) throws -> [UUID: ImportedValues] {
        var result: [UUID: ImportedValues] = [:]
        var start = 0
        while start < uuids.count {
            let chunk = Array(uuids[start..<min(uuids.count, start + 500)])
            let request = FetchRequest(
                entityName: "ImportedValues",
                predicate: try FetchPredicate("source == %@ AND bookUUID IN %@", source.rawValue, chunk))
            for case let values as ImportedValues in try context.fetch(request) { result[values.bookUUID] = values }
            start += chunk.count
        }
        return result
    }

    /// Sets the fields of `fields` that `record` provides on `book` (every field of a new
    /// book); a new book gets a UUID (the record's or a new one) and its date added (the
    /// record's or `now`). Tags are added, never taken off (see ``importBooks(_:preferringFile:dryRun:)``):
    /// the file's tags, but of a book already there those the last import gave it
    /// (`lastTags`, canonical names).
    ///
    /// - Returns: whether a tag was added to a book already there.
    private func apply(
        _ record: BookRecord, to book: Book, isNew: Bool, fields: Set<BookField>, lastTags: Set<String>?, now: Date,
        authors: inout [String: Author], tags: inout [String: Tag]
    ) -> Bool {
        let provided = record.provided.intersection(fields)
        /// Sets every value of a new book; of a book already there, a value the record
        /// provides that differs, so that an equal one leaves the book unchanged. (A new
        /// book's getters answer a default for a value never set, which a record may equal.)
        func set<Value: Equatable>(_ key: ReferenceWritableKeyPath<Book, Value>, _ value: Value, if field: BookField) {
            if isNew || (provided.contains(field) && book[keyPath: key] != value) {
                book[keyPath: key] = value
            }
        }
        if isNew { book.uuid = record.uuid ?? UUID() }
        set(\.title, record.title, if: .title)
        if isNew || provided.contains(.authors) { setAuthors(record.authors, of: book, authors: &authors) }
        set(\.publishDate, record.publishDate, if: .publishDate)
        // The precision goes with the date: the two are one value (see ImportedFieldValues).
        set(\.datePrecision, record.publishDate == nil ? nil : record.datePrecision.rawValue, if: .publishDate)
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
            set(\.dateAdded, added, if: .dateAdded)
        } else if book.dateAdded == nil {
            book.dateAdded = now
        }
        guard record.provided.contains(.tags) else { return false }
        if isNew {
            setTags(record.tags, of: book, tags: &tags)
            return false
        }
        let had = Set(book.tags.map { $0.canonicalName ?? CanonicalText.fold($0.name) })
        var added = false
        for name in record.tags {
            let key = CanonicalText.fold(name)
            guard !had.contains(key), lastTags?.contains(key) != true else { continue }
            addTag(name, to: book, tags: &tags)
            added = true
        }
        return added
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
