import BookCatalog
import Foundation
import Persistence
import Testing

/// `books undo`, run as the built binary: the last command that changed the catalogue is
/// reversed in one save from the persistent history, an undo is recorded and walks further
/// back when repeated, and a book changed since by something else is refused with nothing
/// changed.
@Suite struct UndoCommandTests {
    private static let solaris = "A9EF420F-038E-4072-AE51-5CF9E8D16E6A"

    @Test func undoOfAnEditPutsTheOldValuesBack() throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try sandbox.run(["show", "a9ef420f"])
        let edit = try sandbox.run(["edit", "a9ef420f", "--title", "Solaris II", "--price", "1.00", "--rating", "4", "--color", ""])
        #expect(edit.status == 0, "\(edit)")
        let undo = try sandbox.run(["undo"])
        #expect(undo.status == 0, "\(undo)")
        #expect(undo.stdout == "Undid books edit (#2): set back 1 book.\n" && undo.stderr.isEmpty, "\(undo)")
        #expect(try sandbox.run(["show", "a9ef420f"]).stdout == before.stdout)
        // Search follows the title back.
        #expect(try sandbox.run(["search", "solaris"]).stdout.contains("A9EF420F  Solaris — Stanisław Lem"))
        let history = try sandbox.run(["history", "--limit", "1"])
        #expect(HistoryCommandTests.lines(history) == ["#3  books undo of #2: updated 1 book", "    updated  A9EF420F  Solaris: color, price, rating, title"], "\(history)")
    }

    @Test func undoOfADeleteBringsTheBookBackAndOfAnAddRemovesIt() throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try sandbox.run(["show", "a9ef420f"])
        #expect(try sandbox.run(["delete", "a9ef420f", "--yes"]).status == 0)
        let undoDelete = try sandbox.run(["undo"])
        #expect(undoDelete.stdout == "Undid books delete (#2): brought back 1 book.\n", "\(undoDelete)")
        #expect(try sandbox.run(["show", "a9ef420f"]).stdout == before.stdout)

        let add = try sandbox.run(["add", "--title", "Nowy", "--author", "Ktoś Nowy", "--date", "2020-01-02", "--price", "1"])
        #expect(add.status == 0)
        #expect(try sandbox.bookCount() == 460)
        let undoAdd = try sandbox.run(["undo"])
        #expect(undoAdd.stdout == "Undid books add (#4): removed 1 book.\n", "\(undoAdd)")
        #expect(try sandbox.bookCount() == 459)
        // The author the add brought, with no book left, went with it.
        let catalog = try Catalog(storeURL: sandbox.store)
        let authors = try catalog.context.fetch(FetchRequest(entityName: "Author", predicate: try FetchPredicate("name == %@", "Ktoś Nowy")))
        #expect(authors.isEmpty)
    }

    @Test func undoAgainWalksFurtherBackDownToTheSeedInOneSave() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--price", "1"]).status == 0)
        #expect(try sandbox.run(["edit", "a9ef420f", "--price", "2"]).status == 0)
        #expect(try sandbox.run(["undo"]).stdout == "Undid books edit (#3): set back 1 book.\n")
        #expect(try sandbox.run(["undo"]).stdout == "Undid books edit (#2): set back 1 book.\n")
        #expect(try sandbox.run(["show", "a9ef420f"]).stdout.contains("Price:     21.98\n"))
        let seed = try sandbox.run(["undo"])
        #expect(seed.stdout == "Undid books seed (#1): removed 459 books.\n", "\(seed)")
        #expect(try sandbox.bookCount() == 0)
        let history = try sandbox.run(["history", "--limit", "1"])
        #expect(HistoryCommandTests.lines(history).first == "#6  books undo of #1: deleted 459 books", "\(history)")
        let nothing = try sandbox.run(["undo"])
        #expect(nothing.status == 1 && nothing.stdout.isEmpty, "\(nothing)")
        #expect(nothing.stderr == "Error: Nothing to undo: no command has changed the catalogue since it began keeping its history.\n")
    }

    @Test func aBookChangedSinceBySomethingElseIsRefusedWithNothingChanged() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--price", "1"]).status == 0)
        // Another program changes the same book, with no command name.
        do {
            let catalog = try Catalog(storeURL: sandbox.store)
            let uuid = try #require(UUID(uuidString: Self.solaris))
            let book = try #require(try catalog.existingBook(uuid: uuid))
            book.price = 3
            try catalog.context.save()
        }
        let before = try sandbox.run(["list", "--json"]).stdout
        let undo = try sandbox.run(["undo"])
        #expect(undo.status == 1 && undo.stdout.isEmpty, "\(undo)")
        #expect(
            undo.stderr == "Error: Cannot undo books edit (#2): A9EF420F \"Solaris\" was changed since by another program (#3); nothing was changed.\n",
            "\(undo)")
        #expect(try sandbox.run(["list", "--json"]).stdout == before)
        #expect(HistoryCommandTests.lines(try sandbox.run(["history", "--limit", "1"])).first == "#3  another program: updated 1 book")
    }

    @Test func undoOnAMissingCatalogueCreatesNothing() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["undo"])
        #expect(run.status == 1 && run.stderr.hasPrefix("Error: Nothing to undo"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }
}
