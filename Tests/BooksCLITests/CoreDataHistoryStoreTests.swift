import Foundation
import PersistenceSQLite
import Testing

/// `books` on a Core Data store in which Core Data records its persistent history (an app
/// made it with `NSPersistentHistoryTrackingKey`): the built binary edits it, and each of its
/// saves is recorded in Core Data's history tables as Core Data records one, so that the app
/// sees it when it next reads the history.
@Suite struct CoreDataHistoryStoreTests {
    /// The catalogue's Core Data store with Core Data's history tables, as Core Data makes
    /// them when it opens a store with history tracking (the DDL of the corpus store
    /// `CoreDataPlus-SampleModel2_V2.sqlite`), no transaction recorded yet.
    static func sandbox() throws -> BooksSandbox {
        let sandbox = try CoreDataBooksStoreTests.coreDataSandbox()
        let database = try Database(path: sandbox.store.path, mode: .mustExist)
        defer { try? database.close() }
        try database.execute(
            """
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER,
                ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
            CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER,
                ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR,
                ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
            CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);
            CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC);
            INSERT INTO Z_PRIMARYKEY VALUES (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0), (16003, 'TRANSACTIONSTRING', 0, 0);
            """)
        return sandbox
    }

    /// `books add` writes the book and records one transaction authored by the command, with
    /// an insert for the book (and its new author) under their entity numbers; `books edit`
    /// records an update naming the written property; `books history` reads both back;
    /// `books undo` is refused (Core Data's history keeps no old values).
    @Test func eachSaveOfBooksIsRecordedInCoreDatasHistory() throws {
        let sandbox = try Self.sandbox()
        let add = try sandbox.run(["add", "--title", "Nowy", "--author", "Ktoś", "--date", "2020-01-02", "--price", "1"])
        #expect(add.status == 0, "\(add)")
        let database = try Database(path: sandbox.store.path, mode: .readOnly)
        defer { try? database.close() }
        let transactions = try database.query(
            "SELECT t.Z_PK, t.Z_ENT, a.ZNAME, p.ZNAME FROM ATRANSACTION t LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS "
                + "LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS")
        #expect(transactions == [[.integer(1), .integer(16002), .text("books add"), .text("books")]])
        let inserted = try database.query(
            "SELECT k.Z_NAME FROM ACHANGE c JOIN Z_PRIMARYKEY k ON k.Z_ENT = c.ZENTITY WHERE c.ZCHANGETYPE = 0 ORDER BY k.Z_NAME")
        let insertedNames = Set(inserted.compactMap { $0.first?.stringValue })
        #expect(insertedNames.isSuperset(of: ["Book", "Author"]), "\(insertedNames)")
        #expect(
            try database.query("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT IN (16001, 16002) ORDER BY Z_ENT")
                == [[.integer(Int64(try database.scalar("SELECT count(*) FROM ACHANGE").int64Value ?? 0))], [.integer(1)]])

        let edit = try sandbox.run(["edit", "a9ef420f", "--title", "Solaris (nowe wydanie)"])
        #expect(edit.status == 0, "\(edit)")
        let updates = try database.query(
            "SELECT c.ZTRANSACTIONID, hex(c.ZCOLUMNS) FROM ACHANGE c JOIN Z_PRIMARYKEY k ON k.Z_ENT = c.ZENTITY "
                + "WHERE c.ZCHANGETYPE = 1 AND k.Z_NAME = 'Book'")
        #expect(updates.count == 1 && updates.first?.first == .integer(2), "\(updates)")
        #expect(updates.first?.last?.stringValue?.isEmpty == false)

        let history = try sandbox.run(["history"])
        #expect(history.status == 0, "\(history)")
        #expect(history.stdout.contains("Nowy"), "\(history)")
        #expect(history.stdout.contains("Solaris (nowe wydanie)"), "\(history)")

        // Undo needs the old values, which Core Data's history does not keep: refused in one
        // line, the store as it was.
        let before = try CoreDataKeyCounterTests.contents(sandbox.store)
        let undo = try sandbox.run(["undo"])
        #expect(undo.status != 0 && undo.stderrLines.count == 1, "\(undo)")
        #expect(undo.stderr.contains("keeps no old values"), "\(undo)")
        #expect(try CoreDataKeyCounterTests.contents(sandbox.store) == before)
    }
}
