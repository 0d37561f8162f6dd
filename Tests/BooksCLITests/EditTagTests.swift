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

    @Test func aBadTagIsRefusedNamingIt() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["edit", "a9ef420f", "--tag", "+a,b"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr == "Error: Invalid tag 'a,b': a tag can't contain a comma\n")
        #expect(!(try sandbox.run(["show", "a9ef420f"]).stdout.contains("Tags:")))
    }
}
