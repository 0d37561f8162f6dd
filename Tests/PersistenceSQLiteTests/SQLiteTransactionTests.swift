import Foundation
import Testing

import Persistence
import PersistenceSQLite

@Suite struct SQLiteTransactionTests {
    struct Refusal: Error, Equatable { let reason: String }

    func makeDatabase() throws -> Database {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x INTEGER PRIMARY KEY)")
        return db
    }

    func values(_ db: Database) throws -> [Int64] {
        try db.query("SELECT x FROM t ORDER BY x").compactMap { $0.first?.int64Value }
    }

    @Test(arguments: [Database.TransactionKind.deferred, .immediate, .exclusive])
    func transactionCommitsWhenBodyReturns(_ kind: Database.TransactionKind) throws {
        let db = try makeDatabase()
        let result = try db.inTransaction(kind) {
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO t VALUES (?)", [1])
            return "done"
        }
        #expect(result == "done")
        #expect(!db.isInTransaction)
        #expect(try values(db) == [1])
    }

    @Test func transactionRollsBackAndRethrowsWhenBodyThrows() throws {
        let db = try makeDatabase()
        try db.execute("INSERT INTO t VALUES (?)", [1])
        let error = try #require(throws: Refusal.self) {
            try db.inTransaction {
                try db.execute("INSERT INTO t VALUES (?)", [2])
                throw Refusal(reason: "no")
            }
        }
        #expect(error == Refusal(reason: "no"))
        #expect(!db.isInTransaction)
        #expect(try values(db) == [1])
    }

    @Test func savepointRollbackInsideCommittedTransactionKeepsOuterRows() throws {
        let db = try makeDatabase()
        try db.inTransaction {
            try db.execute("INSERT INTO t VALUES (?)", [1])
            #expect(throws: Refusal.self) {
                try db.inSavepoint {
                    try db.execute("INSERT INTO t VALUES (?)", [2])
                    throw Refusal(reason: "inner")
                }
            }
            #expect(db.isInTransaction)
            try db.inSavepoint {
                try db.execute("INSERT INTO t VALUES (?)", [3])
                // Nested: the innermost rollback leaves the middle savepoint's row.
                _ = try? db.inSavepoint {
                    try db.execute("INSERT INTO t VALUES (?)", [4])
                    throw Refusal(reason: "innermost")
                }
            }
            try db.execute("INSERT INTO t VALUES (?)", [5])
        }
        #expect(try values(db) == [1, 3, 5])
    }

    @Test func savepointOutsideTransactionCommitsOrRollsBack() throws {
        let db = try makeDatabase()
        try db.inSavepoint { try db.execute("INSERT INTO t VALUES (?)", [1]) }
        #expect(!db.isInTransaction)
        #expect(throws: Refusal.self) {
            try db.inSavepoint {
                try db.execute("INSERT INTO t VALUES (?)", [2])
                #expect(db.isInTransaction)
                throw Refusal(reason: "outer")
            }
        }
        #expect(!db.isInTransaction)
        #expect(try values(db) == [1])
    }

    @Test func transactionsDoNotNest() throws {
        let db = try makeDatabase()
        try db.inTransaction {
            let error = try #require(throws: SQLiteError.self) { try db.inTransaction {} }
            #expect(error.message == "cannot start a transaction within a transaction")
            try db.execute("INSERT INTO t VALUES (?)", [1])
        }
        #expect(try values(db) == [1])
    }

    @Test func failedCommitRollsBack() throws {
        let db = try Database.inMemory()
        try db.execute(
            """
            CREATE TABLE Author(id INTEGER PRIMARY KEY);
            CREATE TABLE Book(id INTEGER PRIMARY KEY,
                author INTEGER REFERENCES Author(id) DEFERRABLE INITIALLY DEFERRED);
            """)
        let error = try #require(throws: SQLiteError.self) {
            try db.inTransaction {
                try db.execute("INSERT INTO Book(author) VALUES (?)", [9])  // checked at COMMIT
            }
        }
        #expect(error.isForeignKeyConstraint)
        #expect(error.sql == "COMMIT TRANSACTION")
        #expect(!db.isInTransaction)
        #expect(try db.scalar("SELECT count(*) FROM Book") == 0)
    }
}
