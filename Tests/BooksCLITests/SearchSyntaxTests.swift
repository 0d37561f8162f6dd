import Foundation
import Testing

/// `books search` with fields, phrases, exclusions and OR, end to end: what each finds, that
/// a malformed query is a usage error (64) naming the position before any store is opened,
/// and that hostile text in any field is compared as text, never run.
@Suite struct SearchSyntaxTests {
    static let solaris = "A9EF420F  Solaris — Stanisław Lem · 1961 · 21.98"
    static let cyberiada = "2E6AC975  Cyberiada — Stanisław Lem · 1965 · 26.46"
    static let hermans = "E0EB7B7E  De donkere kamer van Damokles — Willem Frederik Hermans · 1958 · 38.81"
    static let aleman = "C5B1AD3E  Guzmán de Alfarache — Mateo Alemán · 1599 · 44.38"
    static let cien = "3D7B6A6B  Cien años de soledad — Gabriel García Márquez · May 30, 1967 · 47.39"

    @Test(arguments: [
        (["author:lem"], [cyberiada, solaris, hermans, aleman]),
        (["author:LEM", "-solaris"], [cyberiada, hermans, aleman]),
        (["author:lem -solaris -hermans -alemán"], [cyberiada]),
        (["\"stanisław lem\"", "-cyberiada"], [solaris]),
        (["title:\"cien años\""], [cien]),
        (["title:\"CIEN ANOS\"", "author:marquez"], [cien]),
        (["\"de soledad\""], [cien]),
        (["solaris", "OR", "cyberiada"], [cyberiada, solaris]),
        (["author:lem", "year:1961"], [solaris]),
        (["year:1967", "marquez"], [cien]),
    ])
    func eachTermFindsWhatItNames(words: [String], lines: [String]) throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["search"] + words)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(words): \(run)")
        #expect(run.stdout == lines.map { $0 + "\n" }.joined(), "\(words): \(run.stdout)")
    }

    @Test func isbnAndYearFindTheBookEdited() throws {
        let sandbox = try BooksSandbox.seeded()
        let edit = try sandbox.run(["edit", "A9EF420F", "--isbn", "0-306-40615-2"])
        #expect(edit.status == 0, "\(edit)")
        for query in ["isbn:978-0-306", "isbn:9780306406157", "isbn:0306406152", "isbn:978 author:lem"] {
            let run = try sandbox.run(["search", query])
            #expect(run.stdout == Self.solaris + "\n", "\(query): \(run)")
        }
        let none = try sandbox.run(["search", "isbn:979"])
        #expect(none.stdout.isEmpty && none.stderr == "No books match \"isbn:979\".\n", "\(none)")
    }

    @Test(arguments: [
        ("title:\"cien", "Unable to parse search \"title:\"cien\" at position 6: the quote is not closed"),
        ("\"zzqx", "Unable to parse search \"\"zzqx\" at position 0: the quote is not closed"),
        ("author:", "Unable to parse search \"author:\" at position 7: expected a value after 'author:'"),
        ("year:abc", "Unable to parse search \"year:abc\" at position 5: expected a year such as year:1961"),
        ("isbn:97x", "Unable to parse search \"isbn:97x\" at position 5: expected the digits an ISBN starts with, such as isbn:978-0-306"),
        ("OR lem", "Unable to parse search \"OR lem\" at position 0: 'OR' needs a term before it"),
    ])
    func aMalformedQueryIsAUsageErrorAndCreatesNoStore(query: String, message: String) throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["search", "--", query])
        #expect(run.status == 64, "\(query): \(run)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "Error: Invalid search: \(message)\n", "\(run.stderr)")
        #expect(try sandbox.files().isEmpty, "a refused search left files")
    }

    @Test(arguments: [
        "author:%", "title:_", "author:\"'; DROP TABLE Book; --\"", "title:\\", "tag:\"a\\\"",
        "-author:\"%\" zzqx", "author:lem OR title:\"%_\\\"", "isbn:9-7-8", "title:\"\u{1B}[2J\"",
        String(repeating: "author:x OR ", count: 127) + "title:y",
        String(repeating: "-%_ ", count: 255) + "zzqx",
    ])
    func hostileTextInAnyTermIsMatchedAsText(query: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try Data(contentsOf: sandbox.store)
        let run = try sandbox.run(["search", "--json", "--", query])
        #expect(run.status == 0, "\(query.prefix(80)): \(run)")
        #expect(try run.jsonObjects().count < 459, "\(query.prefix(80)) matched every book")
        #expect(try Data(contentsOf: sandbox.store) == before, "search changed the store")
    }

    @Test func aQueryOfMoreThan256ConditionsIsRefused() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["search"] + Array(repeating: "-a", count: 257))
        #expect(run.status == 64)
        #expect(run.stderr.hasSuffix("at position 768: a search has at most 256 terms besides plain words\n"), "\(run.stderr)")
        #expect(try sandbox.files().isEmpty)
    }
}
