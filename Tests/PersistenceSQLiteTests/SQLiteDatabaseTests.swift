import Foundation
import Testing

import Persistence
import PersistenceSQLite

/// A unique database path under the temporary directory, removed (with its WAL and
/// shared-memory files) when the test is done.
struct SQLiteTemporaryFile: ~Copyable {
    let path: String

    init(_ name: String = "db") {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("sqlite-test-\(name)-\(UUID().uuidString).sqlite").path
    }

    deinit {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

/// The storage class name SQL's `typeof()` reports for a value.
func sqliteTypeof(_ value: SQLiteValue) -> String {
    switch value {
    case .null: return "null"
    case .integer: return "integer"
    case .real: return "real"
    case .text: return "text"
    case .blob: return "blob"
    }
}

@Suite struct SQLiteDatabaseTests {
    @Test func openingAFileEnablesWALAndForeignKeys() throws {
        let file = SQLiteTemporaryFile()
        let db = try Database(path: file.path)
        #expect(db.path == file.path)
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
        try db.execute("CREATE TABLE Author(id INTEGER PRIMARY KEY)")
        try db.execute(
            "CREATE TABLE Book(id INTEGER PRIMARY KEY, author INTEGER REFERENCES Author(id))")
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO Book(author) VALUES (?)", [42])
        }
        #expect(error.isForeignKeyConstraint)
        #expect(error.codeName == "SQLITE_CONSTRAINT_FOREIGNKEY")
    }

    @Test func inMemoryDatabaseHasNoPath() throws {
        let db = try Database.inMemory()
        #expect(db.path == nil)
        #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
        #expect(Database.sqliteVersion.hasPrefix("3."))
    }

    @Test func executeRunsEveryStatementOfAScript() throws {
        let db = try Database.inMemory()
        try db.execute(
            """
            CREATE TABLE t(x); -- a comment
            INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);
            SELECT * FROM t;
            """)
        #expect(try db.query("SELECT x FROM t ORDER BY x") == [[1], [2]])
        #expect(db.changes == 1)
        #expect(db.lastInsertRowID == 2)
        try db.execute("   ")
    }

    @Test func syntaxErrorCarriesMessageAndSQL() throws {
        let file = SQLiteTemporaryFile()
        let db = try Database(path: file.path)
        let sql = "SELEC * FROM nowhere"
        let error = try #require(throws: SQLiteError.self) { try db.execute(sql) }
        #expect(error.code == 1)
        #expect(error.message.contains("syntax error"))
        #expect(error.sql == sql)
        #expect(error.path == file.path)
        #expect(error.description.contains("SQLite error 1 (SQLITE_ERROR)"))
        #expect(error.description.contains("while executing `\(sql)` in \(file.path)"))

        let prepareError = try #require(throws: SQLiteError.self) { try db.prepare(sql) }
        #expect(prepareError.sql == sql)
        let missingTable = try #require(throws: SQLiteError.self) {
            try db.query("SELECT * FROM nowhere")
        }
        #expect(missingTable.message == "no such table: nowhere")
    }

    @Test func uniqueAndNotNullFailuresHaveDistinctExtendedCodes() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE Book(id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE)")
        try db.execute("INSERT INTO Book(id, uuid) VALUES (?, ?)", [1, "a"])

        let unique = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO Book(uuid) VALUES (?)", ["a"])
        }
        #expect(unique.code == 19 && unique.extendedCode == 2067)
        #expect(unique.isConstraint && unique.isUniqueConstraint && !unique.isNotNullConstraint)
        #expect(
            unique.description.hasPrefix(
                "SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE): UNIQUE constraint failed: Book.uuid"))

        let notNull = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO Book(uuid) VALUES (?)", [nil])
        }
        #expect(notNull.extendedCode == 1299)
        #expect(notNull.isConstraint && notNull.isNotNullConstraint && !notNull.isUniqueConstraint)
        #expect(notNull.message == "NOT NULL constraint failed: Book.uuid")

        let primaryKey = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO Book(id, uuid) VALUES (?, ?)", [1, "b"])
        }
        #expect(primaryKey.extendedCode == 1555 && primaryKey.isUniqueConstraint)
    }

    @Test func fileThatIsNotADatabaseIsRefusedAndLeftUntouched() throws {
        let file = SQLiteTemporaryFile("garbage")
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: file.path))

        for mode in [Database.OpenMode.createIfMissing, .mustExist, .readOnly] {
            let error = try #require(throws: SQLiteError.self) {
                try Database(path: file.path, mode: mode)
            }
            #expect(error.isNotADatabase)
            #expect(error.message == "file is not a database")
            #expect(error.description.contains("file is not a database"))
            #expect(error.description.contains(file.path))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
    }

    @Test func mustExistOnAMissingFileNamesThePath() throws {
        let file = SQLiteTemporaryFile("missing")
        for mode in [Database.OpenMode.mustExist, .readOnly] {
            let error = try #require(throws: SQLiteError.self) {
                try Database(path: file.path, mode: mode)
            }
            #expect(error.isCantOpen)
            #expect(error.path == file.path)
            #expect(error.description.contains(file.path))
            #expect(error.message.contains("No such file or directory"))
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func readOnlyDatabaseRefusesWrites() throws {
        let file = SQLiteTemporaryFile()
        try Database(path: file.path).execute("CREATE TABLE t(x); INSERT INTO t VALUES (7)")
        let db = try Database(path: file.path, mode: .readOnly)
        #expect(try db.scalar("SELECT x FROM t") == 7)
        let error = try #require(throws: SQLiteError.self) { try db.execute("DELETE FROM t") }
        #expect(error.isReadOnly)
    }

    @Test func secondWriterFailsQuicklyWithDatabaseIsLocked() throws {
        let file = SQLiteTemporaryFile("busy")
        let writer = try Database(path: file.path, busyTimeout: 0.2)
        try writer.execute("CREATE TABLE t(x)")
        let holder = try Database(path: file.path)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }

        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(throws: SQLiteError.self) {
            try writer.execute("INSERT INTO t VALUES (?)", [1])
        }
        let elapsed = clock.now - start
        #expect(error.isBusy)
        #expect(error.code == 5)
        #expect(error.message == "database is locked")
        #expect(error.description.contains("database is locked"))
        #expect(elapsed >= .milliseconds(150))
        #expect(elapsed < .seconds(10), "the timeout, not a hang, ends the wait")
        // Reading still works in WAL mode while the other connection writes.
        #expect(try writer.scalar("SELECT count(*) FROM t") == 0)
    }

    @Test func cachedStatementIsReusedResetAndCleared() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        let sql = "SELECT x, ? FROM t ORDER BY x"
        let first = try db.cachedStatement(sql)
        try first.bind(9, at: 1)
        #expect(try first.step())
        #expect(first.int64(at: 0) == 1)
        #expect(try first.step())
        #expect(first.int64(at: 0) == 2)

        let second = try db.cachedStatement(sql)
        #expect(first === second)
        #expect(try second.step())
        #expect(second.int64(at: 0) == 1)  // reset: starts over
        #expect(second.isNull(at: 1))  // bindings cleared
        #expect(try db.prepare(sql) !== second)
    }

    @Test func scalarAndQueryLeaveNoStatementRunning() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2)")
        #expect(try db.scalar("SELECT x FROM t ORDER BY x") == 1)  // reads one row of two
        #expect(try db.scalar("SELECT x FROM t WHERE x > 5") == .null)
        try db.execute("DROP TABLE t")  // fails with "table is locked" if a read is pending
    }

    @Test func closeIsIdempotentAndLaterUseThrows() throws {
        let db = try Database.inMemory()
        let cached = try db.cachedStatement("SELECT 1")
        let owned = try db.prepare("SELECT 2")
        try db.close()
        try db.close()
        #expect(!db.isInTransaction)
        #expect(db.changes == 0)
        let error = try #require(throws: SQLiteError.self) { try db.execute("SELECT 1") }
        #expect(error.message == "the database connection is closed")
        #expect(throws: SQLiteError.self) { try db.cachedStatement("SELECT 1") }
        #expect(throws: SQLiteError.self) { try cached.step() }
        #expect(throws: SQLiteError.self) { try owned.step() }
        #expect(throws: SQLiteError.self) { try cached.bind(1, at: 1) }
    }
}
