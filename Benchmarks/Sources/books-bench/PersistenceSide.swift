import BookCatalog
import Foundation
import Persistence

/// The Persistence side of each workload: the library used the way an app uses it, with
/// the catalogue's model and its `Book` and `Author` classes.
enum PersistenceSide {
    /// Opens (or creates) a store of the catalogue's model.
    static func open(_ path: String) throws -> PersistentContainer { try open(url: URL(fileURLWithPath: path)) }

    /// Opens (or creates) a store of the catalogue's model at a file or server URL.
    static func open(url: URL) throws -> PersistentContainer {
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        return try PersistentContainer(
            model: try Catalog.loadModel(), storeURL: url,
            classes: ["Book": Book.self, "Author": Author.self])
    }

    /// Workload 1: a new store, N inserted books and their authors, one save. Timed from
    /// opening the new store to the end of the save.
    static func insert(_ data: BookData, path: String) throws -> Double {
        try insert(data, url: URL(fileURLWithPath: path))
    }

    /// Workload 1 into a new store at a file or server URL.
    static func insert(_ data: BookData, url: URL) throws -> Double {
        try time {
            let container = try open(url: url)
            let context = container.viewContext
            var authors = [Author?](repeating: nil, count: data.authorNames.count)
            for (i, seed) in data.books.enumerated() {
                let book = try context.insert(Book.self)
                book.uuid = seed.uuid
                book.title = seed.title
                book.publishDate = seed.publishDate
                book.price = seed.price
                book.color = seed.color
                let a = Int(data.authorIndexes[i])
                // Model version 3: an ordered to-many, and the byline the catalogue keeps.
                if let author = authors[a] {
                    book.authors = [author]
                } else {
                    let author = try context.insert(Author.self)
                    author.name = seed.author
                    authors[a] = author
                    book.authors = [author]
                }
                book.byline = seed.author
            }
            try context.save()
        }
    }

    /// Workload 1, for scale: the same books written as batch rows (`BatchInsertRequest`),
    /// without an object each, their authors inserted as objects and saved with them in one
    /// save (`save(inserting:)`), as `books seed` writes. Timed as `insert(_:path:)`.
    static func batchInsert(_ data: BookData, path: String) throws -> Double {
        try time {
            let container = try open(path)
            let context = container.viewContext
            let authors = try data.authorNames.map { name in
                let author = try context.insert(Author.self)
                author.name = name
                return author
            }
            let books = data.books
            let authorIndexes = data.authorIndexes
            let rows = BatchInsertRequest(entityName: "Book", count: books.count) { i, row in
                let seed = books[i]
                try row.setAttribute(seed.uuid, forKey: "uuid")
                try row.setAttribute(seed.title, forKey: "title")
                try row.setAttribute(seed.publishDate, forKey: "publishDate")
                try row.setAttribute(seed.price, forKey: "price")
                try row.setValue(seed.color, forKey: "color")
                try row.setObjects([authors[Int(authorIndexes[i])]], forKey: "authors")
                try row.setAttribute(seed.author, forKey: "byline")
            }
            try context.save(inserting: [rows])
        }
    }

    /// Workload 2: every book as an object, every attribute read. Timed: the fetch and the
    /// reads, in a fresh context.
    static func fetchAll(path: String) throws -> (seconds: Double, rows: Int) {
        try fetchAll(in: try open(path))
    }

    /// Workload 2's fetch and reads in the container's view context.
    static func fetchAll(in container: PersistentContainer) throws -> (seconds: Double, rows: Int) {
        var rows = 0
        var checksum = 0
        let seconds = try time {
            let books = try container.viewContext.fetch(FetchRequest(entityName: "Book"))
            for case let book as Book in books {
                // A byte of the UUID, as the raw side reads a byte of each text: hashing it
                // (SipHash) would time the benchmark's checksum, not the fetch.
                checksum &+= Int(book.uuid.uuid.0) &+ book.title.utf8.count
                checksum &+= (book.canonicalTitle?.utf8.count ?? 0) &+ Int(book.publishDate?.timeIntervalSince1970 ?? 0)
                checksum &+= book.price?.isZero ?? true ? 0 : 1
                checksum &+= Int(book.color?.red ?? 0)
                checksum &+= book.objectIDs(forRelationshipNamed: "authors").count
                rows += 1
            }
        }
        if checksum == 42 { print("") }  // keeps the reads from being optimised away
        return (seconds, rows)
    }

    /// Workload 3: every book sorted newest first (then by title), grouped into sections
    /// by the transient `publishMonthID`. Timed in a fresh context.
    static func fetchMonths(path: String) throws -> (seconds: Double, sections: Int, rows: Int) {
        try fetchMonths(url: URL(fileURLWithPath: path))
    }

    /// Workload 3 on the store at a file or server URL.
    static func fetchMonths(url: URL) throws -> (seconds: Double, sections: Int, rows: Int) {
        let container = try open(url: url)
        var sections: [FetchedSection] = []
        let request = FetchRequest(
            entityName: "Book", sortDescriptors: [SortKey("publishDate", ascending: false), SortKey("title")])
        let seconds = try time {
            sections = try container.viewContext.fetchSections(request, sectionKeyPath: "publishMonthID")
        }
        return (seconds, sections.count, sections.reduce(0) { $0 + $1.count })
    }

    /// The books with the given UUIDs, fetched (untimed) for an update or delete.
    static func books(in container: PersistentContainer, uuids: Set<UUID>) throws -> [Book] {
        try container.viewContext.fetch(FetchRequest(entityName: "Book"))
            .compactMap { $0 as? Book }.filter { uuids.contains($0.uuid) }
    }

    /// Workload 5a: new titles and prices on fetched books, one save. Timed: the changes
    /// and the save.
    static func update(path: String, changes: [UUID: (title: String, price: Decimal)]) throws -> Double {
        let container = try open(path)
        let books = try books(in: container, uuids: Set(changes.keys))
        return try time {
            for book in books {
                guard let change = changes[book.uuid] else { continue }
                book.title = change.title
                book.price = change.price
            }
            try container.viewContext.save()
        }
    }

    /// Workload 5b: delete fetched books, one save. Timed: the deletes and the save.
    static func delete(path: String, uuids: Set<UUID>) throws -> Double {
        let container = try open(path)
        let books = try books(in: container, uuids: uuids)
        return try time {
            // All at once, as GRDB's side deletes by a list of keys: the delete rules' reads
            // (each book's author and tags) are one read a relationship, not one a book.
            container.viewContext.delete(books)
            try container.viewContext.save()
        }
    }
}

extension PersistenceSide {
    /// Workload 2b: workload 2's fetch in the view context while a background context of
    /// the same container imports books, a save per 1,000, from before the fetch starts to
    /// after it ends: what a long import costs the reads a user waits for. Returns the
    /// fetch's time and rows, and how many books were imported meanwhile.
    static func fetchAllDuringImport(_ data: BookData, path: String) throws -> (seconds: Double, rows: Int, imported: Int) {
        let container = try open(path)
        let importer = BackgroundImporter(
            context: container.newBackgroundContext(name: "import"),
            titles: data.books.map(\.title), dates: data.books.map(\.publishDate))
        importer.start()
        importer.waitForFirstSave()
        let (seconds, rows) = try fetchAll(in: container)
        let imported = try importer.stop()
        return (seconds, rows, imported)
    }
}

