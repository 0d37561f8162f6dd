import Foundation
import Testing

/// Text output shows each book's short ID (the shortest prefix of its UUID no other book
/// shares, at least eight digits), and `show` and `delete` take any unique prefix.
@Suite struct ShortIDTests {
    /// Three books, two of whose UUIDs share their first ten digits.
    private static func sandboxWithNeighbours() throws -> BooksSandbox {
        let sandbox = try BooksSandbox()
        let file = sandbox.directory.appendingPathComponent("neighbours.json")
        let books = [
            ("12345678-9A01-4000-8000-000000000001", "Ficciones"),
            ("12345678-9A11-4000-8000-000000000002", "El Aleph"),
            ("ABCDEF01-0000-4000-8000-000000000003", "Rayuela"),
        ].map { uuid, title in
            #"{"uuid": "\#(uuid)", "title": "\#(title)", "author": "Jorge Luis Borges", "publishDate": "1944-01-01", "datePrecision": "year", "price": "9.99"}"#
        }
        try Data(("[" + books.joined(separator: ",\n") + "]").utf8).write(to: file)
        let seed = try sandbox.run(["seed", "--file", file.path])
        #expect(seed.status == 0, "\(seed)")
        return sandbox
    }

    @Test func listingsShowTheShortestUniquePrefixOfAtLeastEightDigits() throws {
        let sandbox = try Self.sandboxWithNeighbours()
        let run = try sandbox.run(["list"])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stdout == """
                12345678-9A1  El Aleph — Jorge Luis Borges · 1944 · 9.99
                12345678-9A0  Ficciones — Jorge Luis Borges · 1944 · 9.99
                ABCDEF01  Rayuela — Jorge Luis Borges · 1944 · 9.99

                """, "\(run)")
        let show = try sandbox.run(["show", "abcdef01"])
        #expect(show.stdout.contains("ID:        ABCDEF01\nUUID:      ABCDEF01-0000-4000-8000-000000000003\n"), "\(show)")
    }

    @Test func showAndDeleteTakeAUniquePrefix() throws {
        let sandbox = try Self.sandboxWithNeighbours()
        let show = try sandbox.run(["show", "12345678-9a1"])
        #expect(show.status == 0 && show.stdout.hasPrefix("Title:     El Aleph\n"), "\(show)")
        #expect(try sandbox.run(["show", "1234 5678"]).status == 64)
        let delete = try sandbox.run(["delete", "abcd", "--yes"])
        #expect(delete.status == 0, "\(delete)")
        #expect(delete.stdout == "Deleted ABCDEF01-0000-4000-8000-000000000003.\n")
        #expect(try sandbox.bookCount() == 2)
    }

    @Test func anAmbiguousPrefixIsRefusedListingTheCandidates() throws {
        let sandbox = try Self.sandboxWithNeighbours()
        for command in ["show", "delete"] {
            let run = try sandbox.run([command, "12345678"])
            #expect(run.status == 65, "\(run)")
            #expect(run.stdout.isEmpty)
            #expect(
                run.stderr == "Error: The ID 12345678 is ambiguous: 2 books begin with it "
                    + "(12345678-9A01-4000-8000-000000000001, 12345678-9A11-4000-8000-000000000002); type more of it.\n")
        }
        #expect(try sandbox.bookCount() == 3)
    }

    @Test func aPrefixNoBookHasIsNoSuchBook() throws {
        let sandbox = try Self.sandboxWithNeighbours()
        let run = try sandbox.run(["show", "ffff"])
        #expect(run.status == 1)
        #expect(run.stderr == "Error: The catalogue has no book whose ID begins with FFFF.\n")
        let whole = try sandbox.run(["delete", "ffffffff-ffff-4fff-bfff-ffffffffffff"])
        #expect(whole.status == 1)
        #expect(whole.stderr == "Error: The catalogue has no book with UUID FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF.\n")
    }
}
