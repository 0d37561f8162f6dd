import Foundation
import Persistence
import SeedData

/// The book catalogue: the `Books` model, a store, and what the `books` command does with
/// them. `BookCatalog` never writes SQL: everything goes through Persistence.
public final class Catalog {
    /// Publication dates are calendar days, stored as midnight UTC and grouped and shown in
    /// UTC, so every reader sees the same day whatever their `TZ` (a day is not an instant;
    /// shown in a zone west of UTC, midnight UTC would fall on the day before).
    public static let calendarTimeZone = TimeZone(secondsFromGMT: 0) ?? TimeZone.current

    /// Books per transaction when seeding, unless told otherwise: five full insert
    /// statements of 4,000 rows. Larger batches make fewer commits, search index merges and
    /// odd-sized statements, for a little more memory; beyond this size they gain little.
    public static let defaultSeedBatchSize = 20_000

    /// The container: model, store and context.
    public let container: PersistentContainer

    /// The context the catalogue works in.
    public var context: ManagedObjectContext { container.viewContext }

    /// The `Books.xcdatamodeld` resource: every version of the catalogue's model.
    ///
    /// Found beside the binary or in its `../share/books`, never through `Bundle.module`,
    /// which traps when the build folder is gone (see `InstalledResource`).
    ///
    /// - Throws: `MissingResourceError` if the resource is in neither place.
    public static func modelBundleURL() throws -> URL {
        try InstalledResource(target: "BookCatalog", name: "Books.xcdatamodeld").url()
    }

    /// The catalogue's model: the current version of `Books.xcdatamodeld`.
    ///
    /// - Throws: `ModelError` if the resource is missing or invalid (a broken build).
    public static func loadModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: modelBundleURL())
    }

    /// Opens (or creates) the catalogue store at `storeURL`; nil for an in-memory store. A
    /// store written with an older version of the model is migrated first (copied aside to
    /// `<store>.pre-migration`, then migrated in one transaction), so that a new release of
    /// `books` keeps every book of an older one.
    ///
    /// - Throws: `StoreError` for a missing directory or a file that is not this
    ///   catalogue's store (left untouched); `MigrationError` for a store of an unknown
    ///   model version (left untouched); a `PersistentStoreFailure` for a file the store can't open.
    ///
    /// With `tracksHistory`, the store records its persistent history from now on (a store
    /// opened so once keeps recording, whoever opens it): what `books history` shows. Commands
    /// that change the catalogue ask for it; those that only read do not, so that a listing
    /// never writes to a catalogue that does not track it yet (or cannot be written).
    public init(storeURL: URL?, tracksHistory: Bool = false) throws {
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        container = try PersistentContainer(
            modelBundle: try Self.modelBundleURL(), storeURL: storeURL, classes: BooksModel.classes,
            tracksPersistentHistory: tracksHistory)
        context.mergePolicy = .mergeByPropertyObjectTrump
        if container.migratedStore { try fillBylines() }
    }

    /// Gives the books of a catalogue just migrated from model version 1 or 2 their `byline`,
    /// which lightweight migration cannot compute: it is the names of the authors the
    /// migration moved into `authors`. Saved by itself, right after the migration.
    private func fillBylines() throws {
        let request = FetchRequest(entityName: "Book", predicate: try FetchPredicate("byline == nil AND authors.@count > 0"))
        let author = context.transactionAuthor
        context.transactionAuthor = Self.upgradeAuthor
        defer { context.transactionAuthor = author }
        do {
            for case let book as Book in try context.fetch(request) { book.byline = Book.byline(book.authorNames) }
            if context.hasChanges { try context.save() }
        } catch {
            context.rollback()
            throw error
        }
    }

    /// The author of the saves that bring a migrated catalogue up to date: not a command's
    /// (`books …`), so that `books undo` never takes it for one.
    static let upgradeAuthor = "catalogue upgrade"

    /// Checks the catalogue file at `storeURL` without opening it as a catalogue (so never
    /// creating or migrating it): SQLite's integrity check and the store's consistency with
    /// the catalogue's model (see `StoreCheck`) — the version of the model that wrote it, so
    /// that a catalogue of an earlier release, which opening would migrate, is not called
    /// damaged.
    ///
    /// - Throws: `StoreError` when there is no file there or it is not a file;
    ///   a `PersistentStoreFailure` (`.notAStore`) when it is not an SQLite database at all.
    public static func check(storeURL: URL) throws -> StoreCheck {
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let migrator = try StoreMigrator(storeURL: storeURL, modelBundle: try modelBundleURL())
        // Reads only; a file that is not a catalogue of any version is checked against the
        // current model, which reports what is wrong with it.
        let writtenWith = (try? migrator.plans())?.first?.source
        return try StoreCheck.run(storeURL: storeURL, model: try writtenWith ?? loadModel())
    }

    // MARK: - Seeding

    /// The number of books in the catalogue.
    public func bookCount() throws -> Int {
        try context.count(for: FetchRequest(entityName: "Book"))
    }

    /// Seeds the bundled sample books (`SeedData/books.json`) into a catalogue that has
    /// never held a book, once: what `books list` and `books search` do on creating it.
    ///
    /// A catalogue whose user deleted every book is never seeded again, and neither is one
    /// that `books seed` filled or `books add` began: the store's metadata records that the
    /// sample books were seeded (or that the user chose what to seed), and the store's
    /// primary-key counter shows whether a book was ever saved. The counter also covers
    /// stores of releases that kept no record: one with books, or that once had books and
    /// was emptied, counts as seeded; one that never held a book (such as the empty file an
    /// older `books show` of a missing UUID left) is seeded, as it would have been then —
    /// its user has not yet seen a catalogue at all.
    ///
    /// - Returns: the number of books added (0 when the catalogue is not new).
    @discardableResult
    public func seedSampleBooksIfNew() throws -> Int {
        guard try awaitsSampleBooks else { return 0 }
        let count = try seed(try Self.bundledSeedBooks())
        try recordSampleBooks(.seeded)
        return count
    }

    /// Whether the catalogue is new, so that `seedSampleBooksIfNew()` would seed it: it has
    /// never held a book, and nothing is recorded of the sample books.
    public var awaitsSampleBooks: Bool {
        get throws {
            let coordinator = context.persistentStoreCoordinator
            return try coordinator.metadataValue(forKey: Self.sampleBooksKey) == nil
                && !coordinator.hasEverStoredObjects(ofEntity: "Book")
        }
    }

    /// The store metadata key that records what became of the sample books.
    static let sampleBooksKey = "books.sampleBooks"

    /// What became of a catalogue's sample books, as recorded in its store.
    enum SampleBooks: String {
        /// A listing seeded them when it created the catalogue.
        case seeded
        /// The user seeded the catalogue with `books seed`.
        case chosenByUser = "chosen by books seed"
        /// The catalogue began with the reader's own books (`books add` or `books import`,
        /// even one that failed): it is theirs, and never gets the samples.
        case declined = "declined: begun with the reader's own books"
    }

    /// Records that this catalogue began with the reader's own books (`books add` or `books
    /// import`, even one that failed), so that no listing ever seeds it with the sample books.
    public func declineSampleBooks() throws {
        try recordSampleBooks(.declined)
    }

    /// Records what became of the sample books, unless something already is recorded.
    func recordSampleBooks(_ outcome: SampleBooks) throws {
        let coordinator = context.persistentStoreCoordinator
        guard try coordinator.metadataValue(forKey: Self.sampleBooksKey) == nil else { return }
        try coordinator.setMetadataValue(outcome.rawValue, forKey: Self.sampleBooksKey)
    }

    /// The books of the bundled seed file.
    ///
    /// - Throws: `CatalogInputError` if the file is malformed.
    public static func bundledSeedBooks() throws -> [SeedBook] {
        try SeedBook.decode(try Data(contentsOf: SeedData.booksURL()), file: "SeedData/books.json")
    }

    /// Adds the given books that the catalogue lacks (by UUID), with their authors, in one
    /// save; a book already there is left as it is (see ``save(_:authors:)``).
    ///
    /// - Returns: the number of books given.
    @discardableResult
    public func seed(_ books: [SeedBook]) throws -> Int {
        var authors = try authorsByName()
        try save(books[...], authors: &authors)
        return books.count
    }

    /// Saves the books of `books` that the catalogue lacks, with the authors they name that
    /// `authors` lacks, in one transaction; on failure nothing is written and the context is
    /// as it was.
    ///
    /// The books are written as batch rows (`BatchInsertRequest`), not objects: a seed's
    /// books are not read back, and an object per book would be much of a seed's work. They go
    /// through the same derived values, validation and uniqueness checks as a saved object.
    /// A book whose UUID is stored is skipped, never overwritten: the save merges by
    /// store trump (`InsertConflictAction.skip`), so a sample book the user rated, tagged or
    /// annotated keeps what they gave it when they seed again, and the seed's history holds
    /// only the books it added (which is all an undo of it removes).
    ///
    /// - Returns: the number of books added: those whose UUID was not stored when the save
    ///   began (counted just before it, so a book another process adds in between counts
    ///   as added here too).
    @discardableResult
    func save(_ books: ArraySlice<SeedBook>, authors: inout [String: Author]) throws -> Int {
        let stored = try context.count(
            for: FetchRequest(entityName: "Book", predicate: try FetchPredicate("uuid IN %@", books.map(\.uuid))))
        let linked = books.map { author(named: $0.author, in: &authors) }
        let now = Self.dateAddedNow()
        let first = books.startIndex
        let rows = BatchInsertRequest(entityName: "Book", count: books.count) { index, row in
            let book = books[first + index]
            try row.setAttribute(book.uuid, forKey: "uuid")
            try row.setAttribute(book.title, forKey: "title")
            try row.setAttribute(book.publishDate, forKey: "publishDate")
            try row.setAttribute(book.price, forKey: "price")
            try row.setTransformableValue(book.color, forKey: "color")
            try row.setAttribute(book.datePrecision.rawValue, forKey: "datePrecision")
            try row.setAttribute(book.language, forKey: "language")
            try row.setAttribute(now, forKey: "dateAdded")
            try row.setObjects([linked[index]], forKey: "authors")
            try row.setAttribute(book.author, forKey: "byline")
        }
        let policy = context.mergePolicy
        context.mergePolicy = .mergeByPropertyStoreTrump
        defer { context.mergePolicy = policy }
        do { try context.save(inserting: [rows]) } catch {
            context.rollback()
            for (name, author) in authors where author.managedObjectContext == nil { authors[name] = nil }
            throw error
        }
        return books.count - stored
    }

    func apply(_ seed: SeedBook, to book: Book, authors: inout [String: Author]) {
        book.uuid = seed.uuid
        book.title = seed.title
        book.publishDate = seed.publishDate
        book.price = seed.price
        book.color = seed.color
        book.datePrecision = seed.datePrecision.rawValue
        book.language = seed.language
        if book.dateAdded == nil { book.dateAdded = Self.dateAddedNow() }
        setAuthors([seed.author], of: book, authors: &authors)
    }

    /// Sets a book's authors (found or made by name, first author first) and its `byline`,
    /// unless they are these already, so that a book given its own authors stays unchanged.
    func setAuthors(_ names: [String], of book: Book, authors: inout [String: Author]) {
        guard book.authorNames != names else { return }
        book.authors = names.map { author(named: $0, in: &authors) }
        book.byline = Book.byline(names)
    }

    /// The date added of a book added now: the current time to the whole second, so that an
    /// export writes it exactly and importing that export finds the book unchanged (a
    /// fraction of a second does not always survive ISO 8601's six digits).
    static func dateAddedNow() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    func author(named name: String, in authors: inout [String: Author]) -> Author {
        if let author = authors[name] { return author }
        // The model's uniqueness constraint on Author.name, with object-trump merging,
        // would also fold a duplicate into the existing row; looking it up first keeps one
        // object per author in memory.
        guard let author = try? context.insert(Author.self) else {
            preconditionFailure("Author is registered in the catalogue's container")
        }
        author.name = name
        authors[name] = author
        return author
    }

    func authorsByName() throws -> [String: Author] {
        var result: [String: Author] = [:]
        for case let author as Author in try context.fetch(FetchRequest(entityName: "Author")) {
            result[author.name] = author
        }
        return result
    }

    // MARK: - Reading

    /// The book with this UUID, if the catalogue has it.
    public func existingBook(uuid: UUID) throws -> Book? {
        var descriptor = FetchDescriptor<Book>(predicate: #Predicate { $0.uuid == uuid })
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).first
    }

    /// Books in `order` (by default newest first, then by title; books whose key is unknown
    /// last), streamed one at a time; by text under a collation, sorted here first (see
    /// ``forEachCollatedBook(matching:order:collation:limit:_:)``).
    public func forEachBook(
        matching predicate: FetchPredicate? = nil, order: ListingOrder = ListingOrder(), limit: Int? = nil,
        _ body: (Book) throws -> Void
    ) throws {
        if let collation = order.textCollation {
            return try forEachCollatedBook(matching: predicate, order: order, collation: collation, limit: limit, body)
        }
        var remaining = limit ?? Int.max
        for part in order.parts(of: predicate) where remaining > 0 {
            var request = FetchRequest(entityName: "Book", sortDescriptors: order.sortKeys)
            request.fetchLimit = remaining == Int.max ? nil : remaining
            request.predicate = part
            try context.forEach(request) { object in
                guard let book = object as? Book else { return true }
                remaining -= 1
                try body(book)
                return true
            }
        }
    }

    /// The order of listings: newest first, then by title.
    static let listingOrder = ListingOrder().sortKeys

    /// The books grouped by publication month, newest month first (oldest first when
    /// `order` is by date reversed; books of unknown date last, under month ID 0), each
    /// month's books in `order`, each section complete
    /// before it is handed over (so a caller can print its count first). Memory holds one
    /// month's books at a time.
    ///
    /// With a `limit`, the sections hold the first `limit` books in all; the last one may
    /// hold fewer than its month has, and its ``MonthSection/bookCount`` still counts them
    /// all ("March 1961 (2 of 5)"), because a month is read whole to be sorted.
    public func forEachMonth(
        matching predicate: FetchPredicate? = nil, order: ListingOrder = ListingOrder(), limit: Int? = nil,
        _ body: (MonthSection) throws -> Void
    ) throws {
        var remaining = limit ?? Int.max
        var current: MonthSection?
        func handOver(_ section: MonthSection) throws {
            var section = section
            if order.key != .date { order.sort(&section.books) }
            section.bookCount = section.books.count
            section.books = Array(section.books.prefix(remaining))
            remaining -= section.books.count
            try body(section)
        }
        // Months in date order; a sort by date is the fetch's own, the others sort each month.
        let monthOrder = order.key == .date ? order : ListingOrder(key: .date, reversed: order.monthsAscending)
        for part in monthOrder.parts(of: predicate) where remaining > 0 {
            var request = FetchRequest(entityName: "Book", sortDescriptors: monthOrder.sortKeys)
            request.predicate = part
            try context.forEach(request) { object in
                guard let book = object as? Book else { return true }
                let id = Int(book.publishMonthID ?? "") ?? 0
                if let section = current, section.monthID != id {
                    try handOver(section)
                    current = nil
                    if remaining == 0 { return false }
                }
                if current == nil { current = MonthSection(monthID: id, books: []) }
                current?.books.append(book)
                return true
            }
        }
        if let current, remaining > 0 { try handOver(current) }
    }

    /// The authors' names of a book, first author first, each cached by the author's object
    /// ID so that listing a million books loads each author once.
    public func authorNames(of book: Book, cache: inout [ObjectID: String]) -> [String] {
        let ids = book.objectIDs(forRelationshipNamed: "authors")
        var names: [String] = []
        names.reserveCapacity(ids.count)
        for id in ids {
            if let name = cache[id] {
                names.append(name)
            } else if let author = try? context.existingObject(with: id) as? Author {
                cache[id] = author.name
                names.append(author.name)
            }
        }
        return names
    }
}

/// The books of one publication month.
public struct MonthSection {
    /// `year * 1000 + month`, as `Book.publishMonthID`.
    public var monthID: Int
    /// The books, in the listing's order: all of the month's, or the first of them when a
    /// listing's limit ends within the month.
    public var books: [Book]
    /// How many books the month has (that the listing's predicate matches), shown or not.
    public var bookCount: Int

    /// A section of `books`, all the month has unless `bookCount` says more.
    public init(monthID: Int, books: [Book], bookCount: Int? = nil) {
        self.monthID = monthID
        self.books = books
        self.bookCount = bookCount ?? books.count
    }

    /// Whether this is the section of books whose date is unknown.
    public var isUnknownDate: Bool { monthID == 0 }
    /// The year.
    public var year: Int { monthID / 1000 }
    /// The month, 1…12.
    public var month: Int { monthID % 1000 }
}
