import Foundation
import Testing

/// The sample books are a demo: a listing that seeds a new catalogue says so, and
/// `books seed --remove` takes out those still as the seed left them, in one undoable
/// command, keeping any the reader changed.
@Suite struct SampleBooksRemovalTests {
    @Test func aListingThatSeedsSaysTheBooksAreADemo() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["list", "--limit", "1"])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stderr == "books: a new catalogue: added the 459 sample books to try it with; "
                + "'books seed --remove' takes them out.\n", "\(run)")
        // Only the listing that seeded says it.
        #expect(try sandbox.run(["list", "--limit", "1"]).stderr.isEmpty)
    }

    @Test func removeTakesOutTheUntouchedSampleBooksAndUndoBringsThemBack() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--rating", "5"]).status == 0)
        #expect(try sandbox.run(["edit", "56a81f96", "--tag", "mine"]).status == 0)
        let mine = try sandbox.run(["add", "--title", "Mine", "--author", "Me", "--date", "2020-01-01", "--price", "1"])
        #expect(mine.status == 0, "\(mine)")

        let remove = try sandbox.run(["seed", "--remove"])
        #expect(remove.status == 0, "\(remove)")
        #expect(
            remove.stdout == "Removed 457 sample books (2 sample books you changed stay: delete by ID what you do "
                + "not want); the catalogue has 3.\n", "\(remove)")
        let titles = Set(try sandbox.run(["list", "--json"]).jsonObjects().compactMap { $0["title"] as? String })
        #expect(titles == ["Solaris", "James", "Mine"])
        // An emptied catalogue is not seeded again by a listing.
        #expect(try sandbox.run(["list"]).stderr.isEmpty)

        let undo = try sandbox.run(["undo"])
        #expect(undo.status == 0 && undo.stdout.contains("brought back 457 books"), "\(undo)")
        #expect(try sandbox.bookCount() == 460)
    }

    @Test func removeOnANewCatalogueRemovesNothingAndKeepsItFromBeingSeeded() throws {
        let sandbox = try BooksSandbox()
        let remove = try sandbox.run(["seed", "--remove"])
        #expect(remove.stdout == "Removed 0 sample books; the catalogue has 0.\n", "\(remove)")
        let list = try sandbox.run(["list"])
        #expect(list.status == 0 && list.stdout.isEmpty && !list.stderr.contains("sample"), "\(list)")
    }

    @Test(arguments: [["--file", "x.json"], ["--count", "3"], ["--batch-size", "3"]])
    func removeLoadsNoBooks(extra: [String]) throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["seed", "--remove"] + extra)
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.hasPrefix("Error: '--remove' cannot be used with '\(extra[0]) <"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }
}
