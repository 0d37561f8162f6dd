import Foundation
import Persistence

extension Catalog {
    /// Adds a book from fields checked as `books edit` checks them (``BookEdit/checked()``):
    /// a title and at least one author are required, every other field is optional.
    ///
    /// A book with the same title and authors as one the catalogue has is an exact duplicate,
    /// refused unless `allowingDuplicate` (a second copy, another edition).
    ///
    /// - Throws: `CatalogInputError` for a missing title or author, or an ISBN another book
    ///   has (exit 65 at the command line); ``DuplicateBookError``; `ValidationError` if the
    ///   model refuses a value. Nothing is written unless all is valid.
    public func add(_ fields: BookEdit.Checked, allowingDuplicate: Bool = false) throws -> Book {
        guard fields.title != nil else {
            throw CatalogInputError(field: "title", value: "", reason: "a book needs a title")
        }
        guard fields.authors != nil else {
            throw CatalogInputError(field: "author", value: "", reason: "a book needs at least one author")
        }
        try checkISBN(fields.isbn, of: nil)
        if !allowingDuplicate, let title = fields.title, let authors = fields.authors,
            let twin = try bookWithTitle(title, authors: authors)
        {
            throw DuplicateBookError(uuid: twin.uuid, title: title, byline: Book.byline(authors))
        }
        let book = try context.insert(Book.self)
        book.uuid = UUID()
        book.dateAdded = Self.dateAddedNow()
        do {
            try apply(fields, to: book)
            try context.save()
        } catch {
            context.rollback()
            throw error
        }
        return book
    }

    /// Deletes the book with this UUID; false when there is none.
    public func delete(uuid: UUID) throws -> Bool {
        guard let book = try existingBook(uuid: uuid) else { return false }
        context.delete(book)
        do { try context.save() } catch {
            context.rollback()
            throw error
        }
        return true
    }

    /// The author with this exact name, if any.
    public func existingAuthor(named name: String) throws -> Author? {
        var descriptor = FetchDescriptor<Author>(predicate: #Predicate { $0.name == name })
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).first
    }
}

extension Catalog {
    /// Applies `edit` to `book` and saves it, as the Core Data sample's edit screen does:
    /// `canonicalTitle` is derived again on save and `publishMonthID` follows the date.
    ///
    /// The save uses optimistic locking under the `.error` merge policy: if another process
    /// saved the book after it was read here, nothing is saved (the other change is kept)
    /// and the edit throws ``BookEditConflictError``. An ISBN another book has is refused.
    /// On any failure the context is rolled back and the store is as it was.
    ///
    /// - Throws: `CatalogInputError` for an ISBN another book has (exit 65);
    ///   ``BookEditConflictError``; `ValidationError` if the model refuses a value.
    public func edit(_ book: Book, with edit: BookEdit.Checked) throws {
        try checkISBN(edit.isbn, of: book)
        do { try apply(edit, to: book) } catch {
            context.rollback()
            throw error
        }

        let policy = context.mergePolicy
        context.mergePolicy = .error
        defer { context.mergePolicy = policy }
        do { try context.save() } catch {
            context.rollback()
            if error is MergeConflictError { throw BookEditConflictError(uuid: book.uuid) }
            throw error
        }
    }

    /// Refuses an ISBN that a book other than `book` has.
    private func checkISBN(_ isbn: String??, of book: Book?) throws {
        if case .some(.some(let isbn)) = isbn, let other = try bookWithISBN(isbn), other.uuid != book?.uuid {
            throw CatalogInputError(
                field: "isbn", value: isbn, reason: "the book \(other.uuid.uuidString) already has this ISBN")
        }
    }

    /// Sets the fields `edit` gives on `book` (not saved).
    private func apply(_ edit: BookEdit.Checked, to book: Book) throws {
        if let title = edit.title { book.title = title }
        if let names = edit.authors {
            var authors: [String: Author] = [:]
            for name in names { if let existing = try existingAuthor(named: name) { authors[name] = existing } }
            setAuthors(names, of: book, authors: &authors)
        }
        if let date = edit.date {
            book.publishDate = date?.day
            book.datePrecision = date?.precision.rawValue
        }
        if let price = edit.price { book.price = price }
        if let color = edit.color { book.color = color }
        if let isbn = edit.isbn { book.isbn = isbn }
        if let rating = edit.rating { book.rating = rating }
        if let status = edit.status { book.status = status?.rawValue }
        if let notes = edit.notes { book.notes = notes }
        if let series = edit.series { book.series = series }
        if let number = edit.seriesNumber { book.seriesNumber = number }
        if let publisher = edit.publisher { book.publisher = publisher }
        if let pages = edit.pages { book.pages = pages }
        if let format = edit.format { book.format = format }
        if let dateRead = edit.dateRead { book.dateRead = dateRead }
        if let readCount = edit.readCount { book.readCount = readCount }
        if let review = edit.review { book.review = review }
        if !edit.tags.isEmpty {
            var tags = try tagsByCanonicalName()
            for change in edit.tags {
                if change.add {
                    addTag(change.name, to: book, tags: &tags)
                } else {
                    removeTag(named: change.name, from: book, tags: &tags)
                }
            }
        }
    }

    /// A book with exactly this title and these authors, in this order, if any.
    func bookWithTitle(_ title: String, authors: [String]) throws -> Book? {
        let descriptor = FetchDescriptor<Book>(predicate: #Predicate { $0.title == title })
        return try context.fetch(descriptor).first { $0.authorNames == authors }
    }

    /// The book with this ISBN (normalised, ISBN-13), if any.
    public func bookWithISBN(_ isbn: String) throws -> Book? {
        var descriptor = FetchDescriptor<Book>(predicate: #Predicate { $0.isbn == isbn })
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).first
    }
}

/// A book `books add` refused because the catalogue already has one of the same title and
/// authors: nothing was added.
public struct DuplicateBookError: Error, Sendable, CustomStringConvertible {
    /// The book already there.
    public var uuid: UUID
    /// The title.
    public var title: String
    /// The authors, as a byline.
    public var byline: String

    /// One line naming the book already there and how to add another copy.
    public var description: String {
        "The catalogue already has \(QuotedText.forMessage(title)) by \(QuotedText.forMessage(byline)) "
            + "(\(uuid.uuidString)); nothing was added (--allow-duplicate adds another copy)."
    }
}
