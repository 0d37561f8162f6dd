import BookCatalog
import Foundation
import GRDB
import Persistence
import RawSQLite

/// The GRDB side of the comparison (issue #27): GRDB.swift 7.10 used as a GRDB app would use
/// it for speed, with `GRDBBook` records, over the same system SQLite, the same schema and
/// indexes as the raw C side, and the same search index kept in the same transaction.
enum GRDBSide {
    /// Opens (or creates) a store as a `DatabasePool` (WAL, GRDB's own choice for it), with
    /// `synchronous = FULL` as the other sides have it (GRDB sets NORMAL for a pool).
    static func open(_ path: String) throws -> DatabasePool {
        let pool = try DatabasePool(path: path)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return pool
    }

    /// The raw side's tables and indexes (`schema_sql` in RawSQLite.c).
    static let schema = """
        CREATE TABLE "Author" ("_id" INTEGER PRIMARY KEY, "canonicalName" TEXT, "name" TEXT);
        CREATE TABLE "Book" ("_id" INTEGER PRIMARY KEY, "canonicalTitle" TEXT, "color" BLOB, \
        "price" TEXT, "publishDate" REAL, "title" TEXT, "uuid" TEXT, "author" INTEGER);
        CREATE UNIQUE INDEX "Author_unique_name" ON "Author" ("name");
        CREATE INDEX "Book_publishDate_index" ON "Book" ("publishDate");
        CREATE INDEX "Book_title_index" ON "Book" ("title");
        CREATE INDEX "Book_author_index" ON "Book" ("author");
        CREATE UNIQUE INDEX "Book_unique_uuid" ON "Book" ("uuid");
        """

    /// The search index of the raw side (RawSearchIndex.c: an external-content FTS5 trigram
    /// table over the canonical text, behind a view giving each row's indexed form), kept
    /// in step by triggers, the way GRDB's own `synchronize(withTable:)` keeps its
    /// full-text tables: each write of a row pays for its entry in the same statement.
    static func searchIndex(table: String, column: String) -> String {
        let index = "_search_\(table)"
        func form(_ row: String) -> String {
            "' ' || \(row).\"\(column)\" || ' ' || CASE WHEN \(row).\"\(column)\" GLOB '*[^ 0-9a-z]*' "
                + "THEN char(1, 1, 1) ELSE '' END"
        }
        let insert = "INSERT INTO \"\(index)\" (rowid, \"\(column)\") VALUES (new.\"_id\", \(form("new")));"
        let remove = "INSERT INTO \"\(index)\" (\"\(index)\", rowid, \"\(column)\") VALUES ('delete', old.\"_id\", \(form("old")));"
        return """
            CREATE VIEW "\(index)_content" AS SELECT "_id", \(form("\"\(table)\"")) AS "\(column)" FROM "\(table)";
            CREATE VIRTUAL TABLE "\(index)" USING fts5("\(column)", content='\(index)_content', content_rowid='_id', \
            tokenize='trigram case_sensitive 1');
            CREATE TRIGGER "\(index)_insert" AFTER INSERT ON "\(table)" WHEN new."\(column)" IS NOT NULL BEGIN \(insert) END;
            CREATE TRIGGER "\(index)_delete" AFTER DELETE ON "\(table)" WHEN old."\(column)" IS NOT NULL BEGIN \(remove) END;
            CREATE TRIGGER "\(index)_update_old" AFTER UPDATE OF "\(column)" ON "\(table)" WHEN old."\(column)" IS NOT NULL \
            BEGIN \(remove) END;
            CREATE TRIGGER "\(index)_update_new" AFTER UPDATE OF "\(column)" ON "\(table)" WHEN new."\(column)" IS NOT NULL \
            BEGIN \(insert) END;
            """
    }

    static func createSchema(_ db: Database, shape: raw_search_shape) throws {
        try db.execute(sql: schema)
        if shape.author_index != 0 { try db.execute(sql: searchIndex(table: "Author", column: "canonicalName")) }
        if shape.book_index != 0 { try db.execute(sql: searchIndex(table: "Book", column: "canonicalTitle")) }
    }

    /// Workload 1: a new store, N books and their authors inserted as records, one
    /// transaction, canonical forms folded as the other sides fold them. Timed from opening
    /// the new store to the commit.
    static func insert(_ data: BookData, path: String, shape: raw_search_shape) throws -> Double {
        try time {
            let pool = try open(path)
            try pool.write { db in
                try createSchema(db, shape: shape)
                var authorIDs: [Int64] = []
                authorIDs.reserveCapacity(data.authorNames.count)
                for name in data.authorNames {
                    var author = GRDBAuthor(canonicalName: CanonicalText.fold(name), name: name)
                    try author.insert(db)
                    authorIDs.append(author.id ?? db.lastInsertedRowID)
                }
                for (i, seed) in data.books.enumerated() {
                    var book = GRDBBook(
                        canonicalTitle: CanonicalText.fold(seed.title), color: seed.color, price: seed.price,
                        publishDate: seed.publishDate, title: seed.title, uuid: seed.uuid,
                        authorID: authorIDs[Int(data.authorIndexes[i])])
                    try book.insert(db)
                }
            }
        }
    }

    /// Workload 1 through GRDB's prepared-statement path, the counterpart of
    /// `BatchInsertRequest`: one `Statement` per table, arguments set unchecked, no record.
    static func batchInsert(_ data: BookData, path: String, shape: raw_search_shape) throws -> Double {
        try time {
            let pool = try open(path)
            try pool.write { db in
                try createSchema(db, shape: shape)
                let authorInsert = try db.makeStatement(
                    sql: "INSERT INTO \"Author\" (\"canonicalName\", \"name\") VALUES (?, ?)")
                var authorIDs: [Int64] = []
                authorIDs.reserveCapacity(data.authorNames.count)
                for name in data.authorNames {
                    authorInsert.setUncheckedArguments([CanonicalText.fold(name), name])
                    try authorInsert.execute()
                    authorIDs.append(db.lastInsertedRowID)
                }
                let bookInsert = try db.makeStatement(
                    sql: "INSERT INTO \"Book\" (\"canonicalTitle\", \"color\", \"price\", \"publishDate\", \"title\", "
                        + "\"uuid\", \"author\") VALUES (?, ?, ?, ?, ?, ?, ?)")
                for (i, seed) in data.books.enumerated() {
                    bookInsert.setUncheckedArguments([
                        CanonicalText.fold(seed.title), seed.color?.storedBytes, seed.price,
                        seed.publishDate.timeIntervalSince1970, seed.title, seed.uuid.uuidString,
                        authorIDs[Int(data.authorIndexes[i])],
                    ])
                    try bookInsert.execute()
                }
            }
        }
    }

    /// Every field of a record, as the other sides read them, folded.
    @inline(__always)
    static func read(_ book: GRDBBook) -> Int {
        var sum = Int(book.uuid.uuid.0) &+ book.title.utf8.count
        sum &+= (book.canonicalTitle?.utf8.count ?? 0) &+ Int(book.publishDate.timeIntervalSince1970)
        sum &+= book.price.isZero ? 0 : 1
        sum &+= Int(book.color?.red ?? 0)
        sum &+= book.authorID == nil ? 0 : 1
        return sum
    }

    nonisolated(unsafe) static var checksum = 0

    /// Runs `request` on a newly opened pool, reads every field of every record; returns
    /// the time of the fetch and the reads, and the number of records.
    /// `inOrder`, when given, sorts the fetched records (inside the timed part).
    static func fetch(
        path: String, _ request: QueryInterfaceRequest<GRDBBook>, inOrder: ((GRDBBook, GRDBBook) -> Bool)? = nil
    ) throws -> (seconds: Double, rows: Int) {
        let pool = try open(path)
        var rows = 0
        let seconds = try time {
            var books = try pool.read { db in try request.fetchAll(db) }
            if let inOrder { books.sort(by: inOrder) }
            for book in books { checksum &+= read(book) }
            rows = books.count
        }
        return (seconds, rows)
    }

    /// Workload 2: every book as a record, every field read.
    static func fetchAll(path: String) throws -> (seconds: Double, rows: Int) {
        try fetch(path: path, GRDBBook.all())
    }

    /// The filtered, sorted fetch: books under `price` (compared as REAL: GRDB stores a
    /// Decimal as TEXT, and TEXT does not compare as a number) newest first.
    ///
    /// `sorting`: with Persistence's plan for an unlimited sorted fetch kept whole — the rows
    /// read in table order, then sorted in memory (here the records, by the same keys, ties
    /// by key); else GRDB's plain `order(Column("publishDate").desc)`, which walks the date
    /// index (a table page read per row).
    static func fetchCheaper(than price: Int, path: String, sorting: Bool) throws -> (seconds: Double, rows: Int) {
        let cheaper = GRDBBook.filter(cast(Column("price"), as: .real) < price)
        guard sorting else { return try fetch(path: path, cheaper.order(Column("publishDate").desc)) }
        return try fetch(path: path, cheaper) { a, b in
            a.publishDate != b.publishDate ? a.publishDate > b.publishDate : a.id! < b.id!
        }
    }

    /// Workload 3: every book newest first (then by title), grouped into UTC months. A
    /// section is its month and the range of the sorted records it holds.
    /// `sorting` as in `fetchCheaper`: titles then compare by their UTF-8 bytes, as SQLite's.
    static func fetchMonths(path: String, sorting: Bool) throws -> (seconds: Double, sections: Int, rows: Int) {
        let pool = try open(path)
        var sections: [(month: Int, books: Range<Int>)] = []
        var books: [GRDBBook] = []
        let seconds = try time {
            if sorting {
                books = try pool.read { db in try GRDBBook.fetchAll(db) }
                books.sort { a, b in
                    if a.publishDate != b.publishDate { return a.publishDate > b.publishDate }
                    if a.title != b.title { return a.title.utf8.lexicographicallyPrecedes(b.title.utf8) }
                    return a.id! < b.id!
                }
            } else {
                books = try pool.read { db in
                    try GRDBBook.order(Column("publishDate").desc, Column("title")).fetchAll(db)
                }
            }
            var start = 0
            var current = books.first.map { monthID($0.publishDate) } ?? 0
            for (i, book) in books.enumerated() {
                let month = monthID(book.publishDate)
                if month != current {
                    sections.append((current, start..<i))
                    current = month
                    start = i
                }
            }
            if !books.isEmpty { sections.append((current, start..<books.count)) }
        }
        return (seconds, sections.count, sections.reduce(0) { $0 + $1.books.count })
    }

    /// `year * 1000 + month` of a UTC instant, as the raw side computes it (days to civil
    /// date, Howard Hinnant's algorithm).
    static func monthID(_ date: Date) -> Int {
        let z = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return year * 1000 + month
    }

    /// The records with the given UUIDs, fetched (untimed) for an update or delete, as the
    /// Persistence side fetches its objects.
    static func chosenBooks(in pool: DatabasePool, where chosen: (UUID) -> Bool) throws -> [GRDBBook] {
        try pool.read { db in try GRDBBook.fetchAll(db) }.filter { chosen($0.uuid) }
    }

    /// Workload 5a: new titles (with their canonical form) and prices on fetched records,
    /// each updated in its changed columns, one transaction. Timed: the changes and the write.
    static func update(path: String, changes: [UUID: (title: String, price: Decimal)]) throws -> Double {
        let pool = try open(path)
        var books = try chosenBooks(in: pool) { changes[$0] != nil }
        return try time {
            try pool.write { db in
                for i in books.indices {
                    guard let change = changes[books[i].uuid] else { continue }
                    books[i].title = change.title
                    books[i].canonicalTitle = CanonicalText.fold(change.title)
                    books[i].price = change.price
                    try books[i].update(db, columns: ["title", "canonicalTitle", "price"])
                }
            }
        }
    }

    /// Workload 5b: the fetched records deleted by primary key with one
    /// `deleteAll(_:keys:)`, one transaction. Timed: the delete.
    static func delete(path: String, uuids: Set<UUID>) throws -> Double {
        let pool = try open(path)
        let keys = try chosenBooks(in: pool) { uuids.contains($0) }.compactMap(\.id)
        return try time {
            try pool.write { db in _ = try GRDBBook.deleteAll(db, keys: keys) }
        }
    }
}
