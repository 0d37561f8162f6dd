import Foundation
import Testing

/// `books edit ID --tag +x --tag -y`: tags made on demand, one tag per canonical name.
@Suite struct EditTagTests {
    @Test func tagsAreAddedAndRemovedAndShareOneCanonicalName() throws {
        let sandbox = try BooksSandbox.seeded()
        let add = try sandbox.run(["edit", "a9ef420f", "--tag", "+SciFi", "--tag", "classic", "--tag", "+Pile"])
        #expect(add.status == 0, "\(add)")
        let remove = try sandbox.run(["edit", "a9ef420f", "--tag", "-pile"])
        #expect(remove.status == 0, "\(remove)")
        let show = try sandbox.run(["show", "a9ef420f"])
        #expect(show.stdout.hasSuffix("Tags:      classic, SciFi\n"), "\(show)")
        // Another book tagged "scifi" gets the same tag, named as it first was.
        let other = try #require(try sandbox.run(["list", "--json", "--limit", "1"]).jsonObjects().first?["uuid"] as? String)
        #expect(try sandbox.run(["edit", other, "--tag", "+scifi"]).status == 0)
        #expect(try sandbox.run(["show", other]).stdout.hasSuffix("Tags:      SciFi\n"))
    }

    /// `books delete` takes the tags no remaining book has with the books, in the same save,
    /// and keeps a tag another book still has. A tag made again after its deletion takes the
    /// new spelling, which is how the test tells a deleted tag from a kept one.
    @Test func deletingBooksDeletesTheTagsNoOtherBookHas() throws {
        let sandbox = try BooksSandbox.seeded()
        let ids = try sandbox.run(["list", "--json", "--limit", "3"]).jsonObjects().compactMap { $0["uuid"] as? String }
        try #require(ids.count == 3)
        let (first, second, third) = (ids[0], ids[1], ids[2])
        #expect(try sandbox.run(["edit", first, "--tag", "+solo", "--tag", "+kept", "--tag", "+pair"]).status == 0)
        #expect(try sandbox.run(["edit", second, "--tag", "+kept", "--tag", "+pair"]).status == 0)
        #expect(try sandbox.run(["edit", third, "--tag", "+kept"]).status == 0)
        let delete = try sandbox.run(["delete", first, second, "--yes"])
        #expect(delete.status == 0, "\(delete)")
        #expect(try sandbox.run(["show", third]).stdout.hasSuffix("Tags:      kept\n"))
        #expect(try sandbox.run(["edit", third, "--tag", "+SOLO", "--tag", "+PAIR", "--tag", "+KEPT"]).status == 0)
        #expect(try sandbox.run(["show", third]).stdout.hasSuffix("Tags:      kept, PAIR, SOLO\n"))
    }

    @Test func aBadTagIsRefusedNamingIt() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["edit", "a9ef420f", "--tag", "+a,b"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr == "Error: Invalid tag 'a,b': a tag can't contain a comma\n")
        #expect(!(try sandbox.run(["show", "a9ef420f"]).stdout.contains("Tags:")))
    }
}
