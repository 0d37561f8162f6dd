import Foundation
import PersistenceSQLite
import Testing

/// A Core Data store whose key counters (`Z_PRIMARYKEY.Z_MAX`) were set by hand to their
/// limit or to a negative number: a save that needs a new key fails in one line naming the
/// entity, and the store is left as it was, row for row (no trap, no wrapped key).
@Suite struct CoreDataKeyCounterTests {
    static func sandbox(zMax: String) throws -> BooksSandbox {
        let sandbox = try CoreDataBooksStoreTests.coreDataSandbox()
        let database = try Database(path: sandbox.store.path, mode: .mustExist)
        defer { try? database.close() }
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(zMax) WHERE Z_ENT < 15000")
        return sandbox
    }

    /// Every row of every table, as text: what a save that wrote nothing leaves as it was.
    static func contents(_ store: URL) throws -> [String] {
        let database = try Database(path: store.path, mode: .readOnly)
        defer { try? database.close() }
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        return try tables.flatMap { table -> [String] in
            let name = table[0].textValue ?? ""
            return try database.query("SELECT * FROM \"\(name)\" ORDER BY 1").map { "\(name): \($0)" }
        }
    }

    /// A Goodreads export of one new book, to import.
    static func csv(_ sandbox: BooksSandbox) throws -> String {
        try sandbox.file("goodreads.csv", """
            Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies
            11,Nowa,Ktoś Nowy,"Nowy, Ktoś",,="",="",4,3.99,Mariner Books,Paperback,204,2002,1961,2020/05/01,2019/12/24,"new-shelf","new-shelf (#1)",read,,,,1,0

            """.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    static let add = ["add", "--title", "Nowy", "--author", "Ktoś", "--date", "2020-01-02", "--price", "1"]

    @Test(arguments: [
        ("9223372036854775807", "is exhausted"),
        ("-5", "holds -5, which is not a key"),
    ])
    func aSaveNeedingAKeyFromASpentCounterFailsAndWritesNothing(_ zMax: String, _ message: String) throws {
        let sandbox = try Self.sandbox(zMax: zMax)
        let before = try Self.contents(sandbox.store)
        for arguments in [Self.add, ["edit", "a9ef420f", "--tag", "brand-new-tag"], ["import", try Self.csv(sandbox)]] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 1, "\(arguments): \(run)")
            #expect(run.stderrLines.count == 1, "\(run)")
            #expect(run.stderr.contains("the store's key counter for entity "), "\(run)")
            #expect(run.stderr.contains(message), "\(run)")
            #expect(try Self.contents(sandbox.store) == before, "\(arguments) changed the store")
        }
        let list = try sandbox.run(["list"])
        #expect(list.status == 0 && list.stdoutLines.filter { !$0.isEmpty }.count == 4, "\(list)")
    }

    @Test func theOwnLayoutsCounterAtItsLimitFailsTheSaveToo() throws {
        let sandbox = try BooksSandbox.seeded()
        do {
            let database = try Database(path: sandbox.store.path, mode: .mustExist)
            defer { try? database.close() }
            try database.execute(
                "INSERT OR REPLACE INTO _primarykey (tableName, lastKey) VALUES "
                    + "('Book', 9223372036854775807), ('Author', 9223372036854775807), ('Tag', 9223372036854775807)")
        }
        let before = try Self.contents(sandbox.store)
        for arguments in [Self.add, ["import", try Self.csv(sandbox)]] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 1, "\(arguments): \(run)")
            #expect(run.stderrLines.count == 1, "\(run)")
            #expect(run.stderr.contains("the store's key counter for entity "), "\(run)")
            #expect(run.stderr.contains("is exhausted"), "\(run)")
            #expect(try Self.contents(sandbox.store) == before, "\(arguments) changed the store")
        }
    }

    @Test(arguments: [true, false])
    func aRowVersionAtItsLimitFailsTheEditAndWritesNothing(coreDataLayout: Bool) throws {
        let sandbox = try coreDataLayout ? CoreDataBooksStoreTests.coreDataSandbox() : CoreDataBooksStoreTests.persistenceSandbox()
        do {
            let database = try Database(path: sandbox.store.path, mode: .mustExist)
            defer { try? database.close() }
            try database.execute(
                coreDataLayout ? "UPDATE ZBOOK SET Z_OPT = 9223372036854775807" : "UPDATE Book SET _opt = 9223372036854775807")
        }
        // A first open by books adds what it keeps beside the rows (its search index).
        #expect(try sandbox.run(["list"]).status == 0)
        let before = try Self.contents(sandbox.store).filter { !$0.contains("'historyTracking'") }
        let run = try sandbox.run(["edit", "a9ef420f", "--title", "Inna"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.contains("the row version of Book/p"), "\(run)")
        #expect(run.stderr.contains("is exhausted"), "\(run)")
        // The first writable open records that history is tracked, before the save begins.
        let after = try Self.contents(sandbox.store).filter { !$0.contains("'historyTracking'") }
        #expect(after == before, "\(Set(after).symmetricDifference(before).sorted().prefix(6))")
    }
}
