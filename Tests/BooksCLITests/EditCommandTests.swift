import Foundation
import Testing

/// `books edit ID --field value…`, run as the built binary: the fields given change, the
/// derived title and month follow, and a bad value is refused naming its field with the
/// store unchanged.
@Suite struct EditCommandTests {
    private static let solaris = "A9EF420F-038E-4072-AE51-5CF9E8D16E6A"

    @Test func anEditChangesTheFieldsGivenAndSearchAndMonthsFollow() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run([
            "edit", "a9ef420f", "--title", "Solaris. Wydanie drugie", "--author", "Stanisław Herman Lem",
            "--date", "1961-05", "--price", "12.50", "--color", "#1E90FF", "--isbn", "0-306-40615-2",
            "--rating", "5", "--status", "read", "--notes", "Ocean",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "Edited \(Self.solaris).\n")
        #expect(run.stderr.isEmpty)

        let show = try sandbox.run(["show", "a9ef"])
        #expect(
            show.stdout == """
                Title:     Solaris. Wydanie drugie
                Author:    Stanisław Herman Lem
                Published: May 1961
                Price:     12.50
                Color:     #1E90FF
                ID:        A9EF420F
                UUID:      \(Self.solaris)
                ISBN:      9780306406157
                Language:  pl
                Rating:    5/5
                Status:    read
                Notes:     Ocean

                """, "\(show)")
        // canonicalTitle was derived again: search finds the new words, folded.
        let search = try sandbox.run(["search", "wydanie"])
        #expect(search.stdout == "A9EF420F  Solaris. Wydanie drugie — Stanisław Herman Lem · May 1961 · 12.50\n", "\(search)")
        // publishMonthID follows the date: the book moved to its new month.
        let byMonth = try sandbox.run(["list", "--by-month"])
        #expect(byMonth.stdout.contains("May 1961 (1)\n  A9EF420F  Solaris. Wydanie drugie"), "\(byMonth.stdout.prefix(200))")
    }

    @Test func aYearOnlyDateAndClearedValues() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--isbn", "9780306406157", "--rating", "3"]).status == 0)
        let run = try sandbox.run(["edit", "a9ef420f", "--date", "1962", "--isbn", "", "--rating", "", "--color", ""])
        #expect(run.status == 0, "\(run)")
        let show = try sandbox.run(["show", "a9ef420f"])
        #expect(show.stdout.contains("Published: 1962\n") && show.stdout.contains("Color:     —\n"), "\(show)")
        #expect(!show.stdout.contains("ISBN:") && !show.stdout.contains("Rating:"), "\(show)")
    }

    @Test(arguments: [
        (["--title", " "], "Error: Invalid title ' ': a title can't be empty\n"),
        (["--date", "1961-13"], nil),
        (["--price", "19,99"], nil),
        (["--color", "blue"], nil),
        (["--isbn", "0-306-40615-3"], "Error: Invalid isbn '0-306-40615-3': the ISBN-10's check digit is wrong\n"),
        (["--rating", "6"], "Error: Invalid rating '6': expected a whole number from 0 to 5\n"),
        (["--status", "done"], "Error: Invalid status 'done': expected to-read, reading or read\n"),
        (["--notes", "bell\u{7}"], nil),
    ] as [([String], String?)])
    func aBadValueIsRefusedNamingItsFieldAndChangesNothing(arguments: [String], message: String?) throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try sandbox.run(["list", "--json"]).stdout
        let run = try sandbox.run(["edit", "a9ef420f", "--title", "Changed"] + arguments)
        #expect(run.status == 65, "\(run)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.hasPrefix("Error: Invalid \(arguments[0].dropFirst(2)) "), "\(run)")
        if let message { #expect(run.stderr == message) }
        #expect(try sandbox.run(["list", "--json"]).stdout == before)
    }

    @Test func anISBNAnotherBookHasIsRefused() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--isbn", "9780306406157"]).status == 0)
        let run = try sandbox.run(["edit", "3d7b6a6b", "--isbn", "0306406152"])
        #expect(run.status == 65)
        #expect(run.stderr == "Error: Invalid isbn '9780306406157': the book \(Self.solaris) already has this ISBN\n")
    }

    @Test func anEditWithoutChangesOrOfNoBookIsRefused() throws {
        let sandbox = try BooksSandbox.seeded()
        let nothing = try sandbox.run(["edit", "a9ef420f"])
        #expect(nothing.status == 64)
        #expect(nothing.stderr.hasPrefix("Error: Nothing to change: give at least one of --title"))
        let missing = try sandbox.run(["edit", "ffffffff", "--rating", "1"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: The catalogue has no book whose ID begins with FFFFFFFF.\n")
        let fresh = try BooksSandbox()
        #expect(try fresh.run(["edit", "a9ef420f", "--rating", "1"]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: fresh.store.path))
    }
}
