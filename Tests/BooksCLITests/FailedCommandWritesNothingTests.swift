import Foundation
import Testing

/// A command that fails writes nothing: its arguments are checked before the store is
/// opened, so a refused command creates no store, seeds none, and leaves no file behind.
/// The one deliberate exception is a refused `books add` or `books import` as the first
/// command: it leaves the reader's catalogue created, empty, recording that it is theirs,
/// so that the listing run next does not fill it with the sample books (see
/// `aRefusedFirstAddLeavesAnEmptyCatalogueThatIsNeverSeeded`).
@Suite struct FailedCommandWritesNothingTests {
    static let manyWords = (1...301).map { "word\($0)" }

    /// Command lines that must fail, with their exit status and a piece of their message.
    static let refused: [([String], Int32, String)] = [
        (["list", "--where", "nosuch == 1"], 64, "Invalid --where predicate"),
        (["list", "--where", "title =="], 64, "Invalid --where predicate"),
        (["list", "--by-month", "--where", "price < 1 AND", "--json"], 64, "Invalid --where predicate"),
        (["list", "--where", "publishMonthID == 1"], 64, "Invalid --where predicate"),
        (["search"] + manyWords, 64, "Invalid search"),
        (["show", "6F9619FF-8B86-D011-B42D-00C04FC964FF"], 1, "no book"),
        (["delete", "6F9619FF-8B86-D011-B42D-00C04FC964FF"], 1, "no book"),
    ]

    @Test(arguments: refused)
    func aRefusedCommandCreatesNoStore(arguments: [String], status: Int32, message: String) throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(arguments)
        #expect(run.status == status, "\(run)")
        #expect(run.stderr.contains(message), "\(run)")
        let files = try sandbox.files()
        #expect(files.isEmpty, "left behind: \(files)")
    }

    @Test(arguments: refused)
    func aRefusedCommandCreatesNoDefaultDirectory(arguments: [String], status: Int32, message: String) throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.runBare(arguments)
        #expect(run.status == status, "\(run)")
        let files = try sandbox.files()
        #expect(files.isEmpty, "left behind: \(files)")
    }

    @Test func aRefusedCommandLeavesAnExistingStoreAsItWas() throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try Data(contentsOf: sandbox.store)
        let filesBefore = try sandbox.files()
        for (arguments, status, _) in Self.refused {
            let run = try sandbox.run(arguments)
            #expect(run.status == status, "\(arguments): \(run)")
        }
        #expect(try Data(contentsOf: sandbox.store) == before)
        #expect(try sandbox.files() == filesBefore)
    }

    @Test func aSearchOfTooManyWordsNamesTheSearchNotAPredicate() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["search"] + Self.manyWords)
        #expect(run.status == 64)
        #expect(!run.stderr.contains("--where"), "\(run)")
        #expect(run.stderr.contains("301 different words"), "\(run)")
        #expect(run.stderrLines.count == 1)
    }

    /// Refused first adds: each leaves the catalogue file alone in its folder (no journal,
    /// no partial file), with no book, and never seeded.
    static let refusedAdds: [([String], String)] = [
        (["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "12,99"], "price"),
        (["add", "--title", "T", "--author", "A", "--date", "2020-13-01", "--price", "1"], "date"),
        (["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1", "--color", "red"], "color"),
        (["add", "--title", "", "--author", "A", "--date", "2020-01-01", "--price", "1"], "title"),
    ]

    @Test(arguments: refusedAdds)
    func aRefusedFirstAddLeavesAnEmptyCatalogueThatIsNeverSeeded(arguments: [String], message: String) throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(arguments)
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains(message), "\(run)")
        #expect(try sandbox.files() == ["Books.sqlite"])
        let list = try sandbox.run(["list"])
        #expect(list.stdout.isEmpty && list.stderr == "The catalogue has no books.\n", "\(list)")
        // On an existing catalogue, the same refusals change nothing.
        let seeded = try BooksSandbox.seeded()
        let before = try Data(contentsOf: seeded.store)
        for (arguments, _) in Self.refusedAdds { #expect(try seeded.run(arguments).status == 65) }
        #expect(try Data(contentsOf: seeded.store) == before)
    }

    @Test func aValidListingStillCreatesAndSeedsTheStore() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["list", "--where", "price < 15", "--limit", "1"])
        #expect(run.status == 0, "\(run)")
        #expect(FileManager.default.fileExists(atPath: sandbox.store.path))
    }
}
