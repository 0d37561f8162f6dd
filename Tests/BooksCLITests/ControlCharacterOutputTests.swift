import Foundation
import Persistence
import Testing
import PersistenceSQLite

/// Titles and names from a store someone else wrote are printed with their control
/// characters escaped: no terminal escape reaches the screen, no newline forges a line.
@Suite struct ControlCharacterOutputTests {
    static let evilTitle = "Evil\u{1B}[2J\u{7}\nFAKE — Nobody · Jan 1, 2000 · 0.00\r\u{9B}31m\u{7F}\tend"
    static let evilAuthor = "Mal\u{1B}]0;owned\u{7}lory\u{85}"

    /// A seeded store whose book `uuid` has ``evilTitle`` and whose author is ``evilAuthor``,
    /// written with SQL as any other program could.
    static func sandboxWithEvilBook() throws -> (BooksSandbox, String) {
        let sandbox = try BooksSandbox.seeded()
        let first = try sandbox.run(["list", "--json", "--limit", "1"]).jsonObjects().first
        let uuid = try #require(first?["uuid"] as? String)
        let file = StoreAudit(store: sandbox.store)
        try file.write("UPDATE Book SET title = ? WHERE uuid = ?", [.text(evilTitle), .text(uuid)])
        try file.write(
            "UPDATE Author SET name = ? WHERE _id IN "
                + "(SELECT source FROM Author_books WHERE destination = (SELECT _id FROM Book WHERE uuid = ?))",
            [.text(evilAuthor), .text(uuid)])
        try file.write("UPDATE Book SET byline = ? WHERE uuid = ?", [.text(evilAuthor), .text(uuid)])
        return (sandbox, uuid)
    }

    static func expectNoRawControls(_ text: String, _ comment: Comment) {
        let controls = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
        }
        #expect(controls.isEmpty, comment)
    }

    @Test func listingsEscapeControlCharacters() throws {
        let (sandbox, _) = try Self.sandboxWithEvilBook()
        for arguments in [["list"], ["list", "--by-month"], ["list", "--limit", "1"]] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 0, "\(run)")
            Self.expectNoRawControls(run.stdout, "\(arguments)")
            #expect(!run.stdoutLines.contains { $0.hasPrefix("FAKE") || $0.hasPrefix("  FAKE") }, "\(arguments)")
            #expect(run.stdout.contains(#""Evil\u{1B}[2J\u{7}\nFAKE — Nobody · Jan 1, 2000 · 0.00\r\u{9B}31m\u{7F}\tend""#), "\(run)")
            #expect(run.stdout.contains(#""Mal\u{1B}]0;owned\u{7}lory\u{85}""#), "\(run)")
        }
    }

    @Test func theEvilBookIsOneLineOfTheListing() throws {
        let (sandbox, _) = try Self.sandboxWithEvilBook()
        let plain = try BooksSandbox.seeded()
        #expect(try sandbox.run(["list"]).stdoutLines.count == (try plain.run(["list"]).stdoutLines.count))
    }

    @Test func showAndSearchEscapeControlCharacters() throws {
        let (sandbox, uuid) = try Self.sandboxWithEvilBook()
        let show = try sandbox.run(["show", uuid])
        #expect(show.status == 0)
        Self.expectNoRawControls(show.stdout, "show")
        #expect(show.stdoutLines.count == 9, "\(show)")  // seven fields, the sample book's language, the final newline
        let search = try sandbox.run(["search", "--limit", "0", "a"])
        Self.expectNoRawControls(search.stdout, "search")
    }

    @Test func jsonEscapesEveryControlCharacter() throws {
        let (sandbox, uuid) = try Self.sandboxWithEvilBook()
        let run = try sandbox.run(["list", "--json"])
        Self.expectNoRawControls(run.stdout.replacingOccurrences(of: "\n", with: ""), "json")
        let book = try #require(try run.jsonObjects().first { $0["uuid"] as? String == uuid })
        #expect(book["title"] as? String == Self.evilTitle)
        #expect(book["author"] as? String == Self.evilAuthor)
    }

    @Test func plainTitlesAreShownAsStored() throws {
        let sandbox = try BooksSandbox.seeded()
        let add = try sandbox.run(["add", "--title", #"AC\DC "Live" at 'Donington'"#, "--author", "A", "--date", "2020-01-01", "--price", "1"])
        #expect(add.status == 0, "\(add)")
        let show = try sandbox.run(["show", add.addedID])
        #expect(show.stdout.contains(#"Title:     AC\DC "Live" at 'Donington'"#), "\(show)")
    }
}
