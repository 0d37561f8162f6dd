import Foundation
import Testing

/// `books add` takes every field `books edit` takes, with the same date forms, and refuses
/// an exact duplicate unless told to add another copy.
@Suite struct AddCommandTests {
    @Test func addTakesEveryFieldEditTakes() throws {
        let sandbox = try BooksSandbox()
        let add = try sandbox.run([
            "add", "--title", "Good Omens", "--author", "Terry Pratchett", "--author", "Neil Gaiman",
            "--date", "1990", "--isbn", "0-06-085398-0", "--rating", "5", "--status", "read", "--tag", "humour",
            "--notes", "Signed", "--series", "Discworld-adjacent", "--series-number", "0.5", "--publisher", "Gollancz",
            "--pages", "288", "--format", "Paperback", "--read", "2021-07-19", "--read-count", "2", "--review", "Funny.",
        ])
        #expect(add.status == 0, "\(add)")
        #expect(add.stdout == "Added \(add.addedID)  Good Omens — Terry Pratchett & Neil Gaiman · 1990 · —\n", "\(add)")
        let show = try sandbox.run(["show", add.addedID])
        #expect(show.status == 0, "\(show)")
        for line in [
            "Authors:   Terry Pratchett & Neil Gaiman\n", "Published: 1990\n", "Price:     —\n",
            "Series:    Discworld-adjacent #0.5\n", "Publisher: Gollancz\n", "Pages:     288\n", "Format:    Paperback\n",
            "ISBN:      9780060853983\n", "Rating:    5/5\n", "Status:    read\n", "Read:      Jul 19, 2021\n",
            "Reads:     2\n", "Notes:     Signed\n", "Review:    Funny.\n", "Tags:      humour\n",
        ] {
            #expect(show.stdout.contains(line), "\(line) in \(show)")
        }
    }

    @Test func anExactDuplicateIsRefusedUnlessAllowed() throws {
        let sandbox = try BooksSandbox()
        let first = try sandbox.run(["add", "--title", "Solaris", "--author", "Stanisław Lem"])
        #expect(first.status == 0, "\(first)")
        let uuid = try #require(try sandbox.run(["show", first.addedID]).stdout.split(separator: "\n").first { $0.hasPrefix("UUID:") }?.split(separator: " ").last.map(String.init))
        let before = try Data(contentsOf: sandbox.store)
        let again = try sandbox.run(["add", "--title", "Solaris", "--author", "Stanisław Lem", "--date", "1961"])
        #expect(again.status == 65, "\(again)")
        #expect(again.stderr == "Error: The catalogue already has Solaris by Stanisław Lem (\(uuid)); nothing was added "
            + "(--allow-duplicate adds another copy).\n", "\(again)")
        #expect(try Data(contentsOf: sandbox.store) == before)
        // Another author, or the flag, adds it.
        #expect(try sandbox.run(["add", "--title", "Solaris", "--author", "Someone Else"]).status == 0)
        #expect(try sandbox.run(["add", "--title", "Solaris", "--author", "Stanisław Lem", "--allow-duplicate"]).status == 0)
        #expect(try sandbox.bookCount() == 3)
    }
}
