import BookCatalog
import Foundation
import Persistence
import PersistenceSQLite
import Testing

/// `books undo` beyond attributes, run as the built binary: a book's tags are put back, an
/// object deleted and brought back by an undo is found again by its UUID, store text in its
/// messages is escaped, a hand-edited history is refused with nothing changed, and a seed of
/// many saves is named in one short line.
@Suite struct UndoHistoryValuesTests {
    private static let solaris = "A9EF420F-038E-4072-AE51-5CF9E8D16E6A"

    @Test func tagOnlyEditsAreUndoneExactly() throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try sandbox.run(["list", "--json"]).stdout
        #expect(try sandbox.run(["edit", "a9ef420f", "--tag", "x", "--tag", "y"]).status == 0)
        #expect(try sandbox.run(["edit", "f7f6485e", "--tag", "x"]).status == 0)
        let tagged = try sandbox.run(["show", "a9ef420f"]).stdout
        #expect(tagged.contains("Tags:      x, y\n"), "\(tagged)")
        // Adds one tag and removes another (which still tags another book).
        #expect(try sandbox.run(["edit", "a9ef420f", "--tag", "-x", "--tag", "z"]).status == 0)
        #expect(try sandbox.run(["show", "a9ef420f"]).stdout.contains("Tags:      y, z\n"))

        let both = try sandbox.run(["undo"])
        #expect(both.status == 0 && both.stdout == "Undid books edit (#4): set back 1 book.\n", "\(both)")
        #expect(try sandbox.run(["show", "a9ef420f"]).stdout == tagged)
        #expect(try sandbox.run(["show", "f7f6485e"]).stdout.contains("Tags:      x\n"))
        // Removes: the tag the other book had goes, and with it the tag no book has.
        #expect(try sandbox.run(["undo"]).stdout == "Undid books edit (#3): set back 1 book.\n")
        #expect(!(try sandbox.run(["show", "f7f6485e"]).stdout.contains("Tags:")))
        #expect(try sandbox.run(["show", "a9ef420f"]).stdout == tagged)
        #expect(try sandbox.run(["undo"]).stdout == "Undid books edit (#2): set back 1 book.\n")
        #expect(try sandbox.run(["list", "--json"]).stdout == before)
        let catalog = try Catalog(storeURL: sandbox.store)
        #expect(try catalog.context.fetch(FetchRequest(entityName: "Tag")).isEmpty)
    }

    @Test func undoOfADeleteBringsTheBookBackWithItsTags() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--tag", "x", "--tag", "y"]).status == 0)
        let before = try sandbox.run(["show", "a9ef420f"]).stdout
        #expect(try sandbox.run(["delete", "a9ef420f", "--yes"]).status == 0)
        #expect(try sandbox.run(["undo"]).stdout == "Undid books delete (#3): brought back 1 book.\n")
        #expect(try sandbox.run(["show", "a9ef420f"]).stdout == before)
    }

    @Test func undoOfTheSeedAfterADeleteWasUndoneRemovesEveryBook() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["delete", "a9ef420f", "--yes"]).status == 0)
        #expect(try sandbox.run(["undo"]).status == 0)
        let seed = try sandbox.run(["undo"])
        #expect(seed.status == 0 && seed.stdout == "Undid books seed (#1): removed 459 books.\n", "\(seed)")
        #expect(try sandbox.bookCount() == 0)
    }

    @Test func aBookBroughtBackAndChangedSinceBlocksTheUndoOfTheSeed() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["delete", "a9ef420f", "--yes"]).status == 0)
        #expect(try sandbox.run(["undo"]).status == 0)
        // Another program changes the book that came back (a new object, a new key).
        do {
            let catalog = try Catalog(storeURL: sandbox.store)
            let uuid = try #require(UUID(uuidString: Self.solaris))
            let book = try #require(try catalog.existingBook(uuid: uuid))
            book.price = 3
            try catalog.context.save()
        }
        let undo = try sandbox.run(["undo"])
        #expect(undo.status == 1 && undo.stdout.isEmpty, "\(undo)")
        #expect(
            undo.stderr == "Error: Cannot undo books seed (#1): A9EF420F \"Solaris\" was changed since by another program (#4); nothing was changed.\n",
            "\(undo)")
        #expect(try sandbox.bookCount() == 459)
    }

    @Test func storeTextInUndoMessagesIsEscaped() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--price", "1"]).status == 0)
        do {
            let catalog = try Catalog(storeURL: sandbox.store)
            let uuid = try #require(UUID(uuidString: Self.solaris))
            let book = try #require(try catalog.existingBook(uuid: uuid))
            book.title = "Evil\u{202E}txt\u{1B}[2J"
            catalog.context.transactionAuthor = "tool\u{202E}\u{1B}[31m"
            try catalog.context.save()
        }
        let undo = try sandbox.run(["undo"])
        #expect(undo.status == 1 && undo.stdout.isEmpty, "\(undo)")
        #expect(
            undo.stderr == "Error: Cannot undo books edit (#2): A9EF420F \"Evil\\u{202E}txt\\u{1B}[2J\" was changed since by "
                + "\"tool\\u{202E}\\u{1B}[31m\" (#3); nothing was changed.\n",
            "\(undo)")
        #expect(!undo.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    }

    @Test func aHandEditedHistoryValueIsRefusedWithNothingChanged() throws {
        let values = [
            ("{\"title\":\"Evil\\u001b[2J\"}", "the history's title of A9EF420F \"Solaris II\" is refused"),
            ("{\"title\":5}", "The store holds a non-text history value for Book.title"),
            ("{\"price\":\"abc\",\"title\":\"Solaris\"}", "The store holds a TEXT value for Book.price"),
            ("{\"price\":\"-5\",\"title\":\"Solaris\"}", "price"),
            ("{\"tags\":\"1 x\",\"title\":\"Solaris\"}", "The store holds a malformed history link list value for Book.tags"),
            ("{}", "its history does not keep the title A9EF420F \"Solaris II\" had before"),
        ]
        for (json, message) in values {
            let sandbox = try BooksSandbox.seeded()
            #expect(try sandbox.run(["edit", "a9ef420f", "--title", "Solaris II"]).status == 0)
            do {
                let database = try Database(path: sandbox.store.path)
                try database.execute(
                    "UPDATE _historyChange SET previousValues = ? WHERE transactionID = 2 AND entity = 'Book'", [.text(json)])
            }
            let before = try sandbox.run(["list", "--json"]).stdout
            let undo = try sandbox.run(["undo"])
            #expect(undo.status != 0 && undo.stdout.isEmpty, "\(json): \(undo)")
            #expect(undo.stderr.hasPrefix("Error: ") && undo.stderr.contains(message), "\(json): \(undo)")
            #expect(undo.stderr.split(separator: "\n").count == 1, "\(json): \(undo)")
            #expect(try sandbox.run(["list", "--json"]).stdout == before, "\(json)")
        }
    }

    @Test func aTagEditWhoseHistoryKeepsNoTagsIsRefusedNotReportedUndone() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--tag", "x"]).status == 0)
        // As an earlier release recorded it: no previous tags.
        do {
            let database = try Database(path: sandbox.store.path)
            try database.execute("UPDATE _historyChange SET previousValues = '{}' WHERE transactionID = 2")
        }
        let undo = try sandbox.run(["undo"])
        #expect(undo.status == 1 && undo.stdout.isEmpty, "\(undo)")
        #expect(
            undo.stderr.hasPrefix("Error: Cannot undo books edit (#2): its history does not keep the "), "\(undo)")
        #expect(try sandbox.run(["show", "a9ef420f"]).stdout.contains("Tags:      x\n"))
    }

    @Test func theUndoOfASeedOfManySavesIsOneShortLine() throws {
        let sandbox = try BooksSandbox()
        #expect(try sandbox.run(["seed", "--batch-size", "5"]).status == 0)
        let undo = try sandbox.run(["undo"])
        #expect(undo.stdout == "Undid books seed (#1–#92, 92 transactions): removed 459 books.\n", "\(undo)")
        let history = try sandbox.run(["history", "--limit", "1"])
        #expect(
            HistoryCommandTests.lines(history).first == "#93  books undo of #1–#92, 92 transactions: deleted 459 books",
            "\(history)")
    }
}
