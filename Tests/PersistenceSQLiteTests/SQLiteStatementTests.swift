import Foundation
import Testing

import Persistence
import PersistenceSQLite

@Suite struct SQLiteStatementTests {
    static let roundTripValues: [SQLiteValue] = [
        .null,
        .integer(0), .integer(-1), .integer(Int64.min), .integer(Int64.max),
        .real(0.1), .real(-0.0), .real(.infinity), .real(-.infinity),
        .real(.greatestFiniteMagnitude), .real(.leastNonzeroMagnitude),
        .text(""), .text("a\u{0}b"), .text("\u{0}"), .text("Dvořák: Slovanské tance 😀"),
        .blob(Data()), .blob(Data([0])), .blob(Data([0, 1, 0, 255])),
    ]

    @Test(arguments: roundTripValues)
    func everyValueRoundTrips(_ value: SQLiteValue) throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(v)")  // no declared type: no affinity conversion
        try db.execute("INSERT INTO t VALUES (?)", [value])
        #expect(try db.scalar("SELECT v FROM t") == value)
        #expect(try db.scalar("SELECT typeof(v) FROM t") == .text(sqliteTypeof(value)))
        #expect(try db.scalar("SELECT v IS ? FROM t", [value]) == 1)
    }

    @Test func emptyBlobAndEmptyStringAreNotNull() throws {
        let db = try Database.inMemory()
        #expect(
            try db.scalar("SELECT typeof(?), length(?)", [.blob(Data()), .blob(Data())]) == "blob")
        #expect(try db.query("SELECT ? IS NULL, ? IS NULL", ["", .blob(Data())]) == [[0, 0]])
        let statement = try db.prepare("SELECT ?, ?, NULL")
        try statement.bind("", at: 1)
        try statement.bind(Data(), at: 2)
        #expect(try statement.step())
        #expect(!statement.isNull(at: 0) && !statement.isNull(at: 1) && statement.isNull(at: 2))
        #expect(statement.value(at: 1) == .blob(Data()))
        #expect(statement.data(at: 2) == Data())  // NULL reads as empty through data(at:)
    }

    /// SQLite has no NaN: a bound NaN is stored as NULL. This layer keeps that behaviour.
    @Test func nanIsStoredAsNull() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(v REAL)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        try insert.bind(Double.nan, at: 1)
        try insert.run()
        try insert.run([.real(-.nan)])
        #expect(try db.query("SELECT v, typeof(v) FROM t") == [[nil, "null"], [nil, "null"]])
    }

    @Test func typedBindsAndAccessorsAgree() throws {
        let db = try Database.inMemory()
        let statement = try db.prepare("SELECT ?, ?, ?, ?, ?")
        try statement.bind(Int64.min, at: 1)
        try statement.bind(2.5, at: 2)
        try statement.bind("x\u{0}y", at: 3)
        try statement.bind(Data([0, 0xFF]), at: 4)
        try statement.bindNull(at: 5)
        #expect(try statement.step())
        #expect(statement.columnCount == 5)
        #expect(statement.int64(at: 0) == Int64.min)
        #expect(statement.double(at: 1) == 2.5)
        #expect(statement.string(at: 2) == "x\u{0}y")
        #expect(statement.data(at: 3) == Data([0, 0xFF]))
        #expect(
            statement.isNull(at: 4) && statement.int64(at: 4) == 0 && statement.string(at: 4) == "")
        #expect(statement.withText(at: 2) { Array($0) } == [0x78, 0, 0x79])
        #expect(statement.withBlob(at: 3) { Array($0) } == [0, 0xFF])
        #expect(statement.withBlob(at: 4) { $0.count } == 0)
        #expect(statement.row() == [.integer(.min), 2.5, "x\u{0}y", .blob(Data([0, 0xFF])), nil])
        #expect(try !statement.step())
    }

    @Test func columnNamesFollowAliases() throws {
        let db = try Database.inMemory()
        let statement = try db.prepare("SELECT 1 AS one, 2 AS \"two words\"")
        #expect(statement.columnCount == 2)
        #expect(statement.columnName(0) == "one")
        #expect(statement.columnName(1) == "two words")
    }

    @Test func namedParametersBindWithEveryPrefix() throws {
        let db = try Database.inMemory()
        let statement = try db.prepare("SELECT :title, @pages, $year, :title")
        #expect(statement.parameterCount == 3)
        try statement.bind("Cien años", forName: ":title")
        try statement.bind(417, forName: "@pages")
        try statement.bind(1967, forName: "year")  // prefix found by lookup
        #expect(try statement.step())
        #expect(statement.row() == ["Cien años", 417, 1967, "Cien años"])

        let error = try #require(throws: SQLiteError.self) {
            try statement.bind(1, forName: ":author")
        }
        #expect(error.code == 25)
        #expect(error.message.contains(":author"))
        #expect(statement.parameterIndex(named: "$year") == 3)
        #expect(statement.parameterIndex(named: "nope") == nil)
    }

    @Test func wrongArgumentCountAndIndexAreErrors() throws {
        let db = try Database.inMemory()
        let statement = try db.prepare("SELECT ?, ?")
        let count = try #require(throws: SQLiteError.self) { try statement.bind([1]) }
        #expect(count.message == "the statement takes 2 argument(s) but 1 were given")
        #expect(count.sql == "SELECT ?, ?")
        let index = try #require(throws: SQLiteError.self) { try statement.bind(1, at: 3) }
        #expect(index.code == 25)
        #expect(index.codeName == "SQLITE_RANGE")
        #expect(throws: SQLiteError.self) { try db.query("SELECT ?") }
    }

    @Test func runResetsAndRebinds() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        try insert.run([1])
        try insert.run([2])
        try insert.bind(3, at: 1)
        try insert.run()  // keeps the binding
        #expect(try db.query("SELECT x FROM t") == [[1], [2], [3]])
        insert.clearBindings()
        try insert.run()
        #expect(try db.scalar("SELECT count(*) FROM t WHERE x IS NULL") == 1)

        let select = try db.prepare("SELECT ?")
        #expect(try select.step())  // stepped, not reset: binding now is misuse
        let misuse = try #require(throws: SQLiteError.self) { try select.bind(4, at: 1) }
        #expect(misuse.code == 21 && misuse.message.contains("reset()"))
    }

    @Test func prepareRefusesEmptySQLAndSeveralStatements() throws {
        let db = try Database.inMemory()
        let several = try #require(throws: SQLiteError.self) {
            try db.prepare("SELECT 1; SELECT 2")
        }
        #expect(several.message.contains("only one statement"))
        #expect(throws: SQLiteError.self) { try db.prepare("SELECT 1; garbage") }
        let empty = try #require(throws: SQLiteError.self) { try db.prepare("  -- nothing") }
        #expect(empty.message == "there is no SQL statement to prepare")
        // Trailing semicolons, blanks and comments are fine.
        #expect(try db.prepare("SELECT 1;  ; -- done\n").step())
    }

    @Test func valueConversionsAndDescriptions() {
        #expect(SQLiteValue(Int64(5)) == .integer(5))
        #expect(SQLiteValue(true) == .integer(1))
        #expect(SQLiteValue(2.5) == .real(2.5))
        #expect(SQLiteValue("a") == .text("a"))
        #expect(SQLiteValue(Data([1])) == .blob(Data([1])))
        #expect(SQLiteValue(String?.none) == .null)
        #expect(SQLiteValue(Optional(3)) == .integer(3))
        #expect(SQLiteValue.integer(7).int64Value == 7 && SQLiteValue.integer(7).doubleValue == 7)
        #expect(SQLiteValue.text("7").int64Value == nil && SQLiteValue.null.isNull)
        #expect(SQLiteValue.blob(Data([0, 0xAB])).description == "X'00AB'")
        #expect(SQLiteValue.text("it's").description == "'it''s'")
    }
}
