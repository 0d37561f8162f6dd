import Foundation
import Testing

import Persistence
import PersistenceSQLite

@Suite struct SQLiteFunctionTests {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "rev refuses numbers" }
    }

    @Test func swiftFunctionIsCallableFromSQL() throws {
        let db = try Database.inMemory()
        try db.createFunction("rev", argumentCount: 1) { arguments in
            guard case .text(let text) = arguments[0] else { throw Refusal() }
            return .text(String(text.reversed()))
        }
        #expect(try db.scalar("SELECT rev('abc')") == "cba")
        #expect(try db.scalar("SELECT rev(?)", ["añ\u{0}z"]) == "z\u{0}ña")

        let error = try #require(throws: SQLiteError.self) { try db.scalar("SELECT rev(42)") }
        #expect(error.message == "rev refuses numbers")
        #expect(error.code == 1)
        #expect(error.sql == "SELECT rev(42)")
    }

    @Test func functionArgumentsAndResultsKeepTheirStorageClass() throws {
        let db = try Database.inMemory()
        try db.createFunction("echo_all", argumentCount: -1, deterministic: false) { arguments in
            .text(arguments.map(sqliteTypeof).joined(separator: ","))
        }
        try db.createFunction("identity", argumentCount: 1) { $0[0] }
        #expect(
            try db.scalar("SELECT echo_all(NULL, 1, 1.5, 'x', x'00', zeroblob(0))")
                == "null,integer,real,text,blob,blob")
        for value: SQLiteValue in [nil, 7, 2.5, "", "a\u{0}b", .blob(Data()), .blob(Data([0, 9]))] {
            #expect(try db.scalar("SELECT identity(?)", [value]) == value)
        }
    }

    /// A predicate function reads its text arguments in place (numbers as SQLite writes them
    /// in text, NULL as nil) and answers 1, 0 or NULL.
    @Test func predicateFunctionReadsTextInPlaceAndAnswersTrueFalseOrNull() throws {
        let db = try Database.inMemory()
        try db.createPredicateFunction("has_prefix", argumentCount: 2) { arguments in
            arguments.withText(0) { text in
                arguments.withText(1) { prefix in
                    guard let text, let prefix else { return nil }
                    return text.starts(with: prefix)
                }
            }
        }
        #expect(try db.scalar("SELECT has_prefix('añb', 'añ')") == 1)
        #expect(try db.scalar("SELECT has_prefix('añb', 'b')") == 0)
        #expect(try db.scalar("SELECT has_prefix(1234, '12')") == 1)
        #expect(try db.scalar("SELECT has_prefix(NULL, '')") == nil)
        #expect(try db.scalar("SELECT has_prefix(?, ?)", ["a\u{0}b", "a\u{0}"]) == 1)
        try db.createPredicateFunction("argument_is_null", argumentCount: -1) { arguments in
            arguments.isNull(arguments.count - 1)
        }
        #expect(try db.scalar("SELECT argument_is_null(1, NULL)") == 1)
        #expect(try db.scalar("SELECT argument_is_null(NULL, 'x')") == 0)
        #expect(try db.scalar("SELECT argument_is_null()") == 1, "an index out of range reads as NULL")
        #expect(throws: SQLiteError.self) { try db.createPredicateFunction("bad", argumentCount: 1000) { _ in nil } }
    }

    @Test func registeringWithBadArgumentCountFails() throws {
        let db = try Database.inMemory()
        #expect(throws: SQLiteError.self) {
            try db.createFunction("bad", argumentCount: 1000) { _ in nil }
        }
    }

    @Test func swiftCollationOrdersRows() throws {
        let db = try Database.inMemory()
        // Shorter first, then case-insensitive byte order.
        try db.createCollation("nocase_len") { left, right in
            if left.count != right.count { return left.count < right.count ? -1 : 1 }
            for (l, r) in zip(left, right) {
                let (a, b) = (
                    UInt8(ascii: "A")...UInt8(ascii: "Z") ~= l ? l | 0x20 : l,
                    UInt8(ascii: "A")...UInt8(ascii: "Z") ~= r ? r | 0x20 : r
                )
                if a != b { return a < b ? -1 : 1 }
            }
            return 0
        }
        try db.execute("CREATE TABLE t(x TEXT)")
        for word in ["bb", "A", "ccc", "Ab", "aa", "b"] {
            try db.execute("INSERT INTO t VALUES (?)", [.text(word)])
        }
        let ordered = try db.query("SELECT x FROM t ORDER BY x COLLATE nocase_len, x")
        #expect(ordered.compactMap { $0[0].stringValue } == ["A", "b", "aa", "Ab", "bb", "ccc"])
        #expect(try db.scalar("SELECT 'ABC' = 'abc' COLLATE nocase_len") == 1)
    }

    @Test func closingReleasesRegisteredClosures() throws {
        final class Token {}
        weak var weakToken: Token?
        let db = try Database.inMemory()
        do {
            let token = Token()
            weakToken = token
            try db.createFunction("touch", argumentCount: 0) { _ in
                withExtendedLifetime(token) { .integer(1) }
            }
            try db.createCollation("plain") { _, _ in withExtendedLifetime(token) { 0 } }
        }
        #expect(try db.scalar("SELECT touch()") == 1)
        #expect(weakToken != nil)
        try db.close()
        #expect(weakToken == nil)
    }
}
