import Foundation
import PersistenceSQLite
import ProcessTestSupport
import Testing

/// `books check` on a catalogue whose values were changed by hand in the `sqlite3` shell:
/// SQLite's integrity check passes, but each value that cannot be read as its attribute's
/// type, or breaks the model's rules, is listed on a line of its own (exit 1).
@Suite struct CheckStoredValuesTests {
    static func corrupt(_ sandbox: BooksSandbox, _ statements: [String]) throws {
        let database = try Database(path: sandbox.store.path, mode: .mustExist)
        defer { try? database.close() }
        for statement in statements { try database.execute(statement) }
    }

    @Test func eachValueThatCannotBeReadIsListed() throws {
        let sandbox = try BooksSandbox.seeded()
        try Self.corrupt(sandbox, [
            "UPDATE Book SET price = 'abc' WHERE _id = 1",
            "UPDATE Book SET title = NULL WHERE _id = 2",
            "UPDATE Book SET rating = 70000 WHERE _id = 3",
            "UPDATE Book SET publishDate = 'yesterday' WHERE _id = 4",
            "UPDATE Book SET rating = 'five' WHERE _id = 5",
            "UPDATE Book SET uuid = x'00' WHERE _id = 6",
        ])
        let run = try sandbox.run(["check"])
        #expect(run.status == 1, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "Book/p1.price holds TEXT 'abc', which is not a Decimal",
            "Book/p2.title is NULL, but the attribute is required",
            "Book/p3.rating holds 70000, which is out of the range of an Integer 16",
            "Book/p4.publishDate holds TEXT 'yesterday', which is not a Date",
            "Book/p5.rating holds TEXT 'five', which is not an Integer 16",
            "Book/p6.uuid holds a BLOB of 1 byte, which is not a UUID",
        ], "\(run)")
        #expect(run.stderr == "Error: The catalogue \(sandbox.store.path) is damaged: 6 problems found.\n", "\(run)")
    }

    @Test func aLongListStopsAfterTwentyLinesAndCountsTheRest() throws {
        let sandbox = try BooksSandbox.seeded()
        try Self.corrupt(sandbox, ["UPDATE Book SET price = 'abc'"])
        let database = try Database(path: sandbox.store.path, mode: .readOnly)
        let count = try #require(try database.scalar("SELECT count(*) FROM Book").int64Value)
        try database.close()
        #expect(count > 20)
        let run = try sandbox.run(["check"])
        #expect(run.status == 1, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 21, "\(run)")
        #expect(lines.last == "and \(count - 20) more values that cannot be read or break the model", "\(run)")
    }

    @Test func persistenceToolsStoreCheckListsThemToo() throws {
        let sandbox = try BooksSandbox.seeded()
        try Self.corrupt(sandbox, [
            "UPDATE Book SET price = 'abc' WHERE _id = 1",
            "UPDATE Author SET name = NULL WHERE _id = 1",
        ])
        let bundle = BuiltProduct.repositoryRoot.appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld").path
        let process = Process()
        process.executableURL = try BuiltProduct.executable(named: "persistence-tool")
        process.arguments = ["store", "check", sandbox.store.path, "--model", bundle]
        process.environment = ["LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        let run = try ChildProcess.run(process)
        #expect(run.status == 1, "\(run.stderrText)")
        #expect(run.stdoutText == """
            Author/p1.name is NULL, but the attribute is required
            Book/p1.price holds TEXT 'abc', which is not a Decimal

            """, "\(run.stdoutText)")
        #expect(run.stderrText.contains("is damaged: 2 problems found"), "\(run.stderrText)")
    }
}
