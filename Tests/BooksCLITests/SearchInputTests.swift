import Foundation
import Testing

/// Search text that is syntax elsewhere (FTS5 operators, column filters, SQL and LIKE
/// characters) is matched literally, and never fails. `BooksEndToEndTests` covers the
/// single characters; these are the FTS5 keywords and forms an index query would parse.
@Suite struct SearchInputTests {
    @Test(arguments: ["AND", "NOT", "title:x", "^x", "(", "a*", "\"a\" + \"b\"", "NEAR(a b, 2)", "{title}: x", "' OR 1=1 --"])
    func ftsSyntaxIsMatchedLiterally(query: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try Data(contentsOf: sandbox.store)
        let miss = try sandbox.run(["search", "--", query + " zzqx"])
        #expect(miss.status == 0, "\(query): \(miss)")
        #expect(miss.stdout == "", "\(query): \(miss.stdout.prefix(300))")
        #expect(miss.stderr == "No books match \"\(query) zzqx\".\n")
        let alone = try sandbox.run(["search", "--json", "--", query])
        #expect(alone.status == 0, "\(query): \(alone)")
        #expect(try alone.jsonObjects().count < 459, "\(query) matched every book")
        #expect(try Data(contentsOf: sandbox.store) == before, "search changed the store")
    }
}
