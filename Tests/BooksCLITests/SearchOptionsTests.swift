import Foundation
import Testing

/// `books search` takes `--where`, `--sort`, `--format` and `--fields` as `list` does: one
/// query language for both commands.
@Suite struct SearchOptionsTests {
    @Test func whereNarrowsTheMatchesAndFieldsAndFormatPrintThemAsListDoes() throws {
        let sandbox = try BooksSandbox.seeded()
        let narrowed = try sandbox.run(["search", "lem", "--where", "publishDate < \"1962-01-01\"", "--fields", "title,date"])
        #expect(narrowed.status == 0, "\(narrowed)")
        #expect(narrowed.stdout.contains("Solaris · 1961\n"), "\(narrowed)")
        #expect(!narrowed.stdout.contains("Cyberiada"), "\(narrowed)")
        let csv = try sandbox.run(["search", "solaris", "--format", "csv", "--fields", "uuid,title,authors"])
        #expect(csv.stdout == "uuid,title,authors\r\nA9EF420F-038E-4072-AE51-5CF9E8D16E6A,Solaris,Stanisław Lem\r\n", "\(csv)")
        let json = try sandbox.run(["search", "solaris", "--format", "json", "--fields", "title,series,pages"])
        #expect(json.stdout == "[\n{\"title\": \"Solaris\", \"series\": null, \"pages\": null}\n]\n", "\(json)")
    }

    @Test func sortOrdersTheMatchesAsListDoesInsteadOfByRank() throws {
        let sandbox = try BooksSandbox.seeded()
        let ranked = try sandbox.run(["search", "lem", "--fields", "title", "--limit", "0"])
        let byDate = try sandbox.run(["search", "lem", "--sort", "date", "--reverse", "--fields", "title,date", "--limit", "0"])
        #expect(byDate.status == 0, "\(byDate)")
        let lines = byDate.stdout.split(separator: "\n").map(String.init)
        let titles = lines.map { String($0.split(separator: " · ").first ?? "") }
        #expect(Set(titles) == Set(ranked.stdout.split(separator: "\n").map(String.init)), "the same matches: \(byDate) \(ranked)")
        let years = lines.compactMap { $0.split(separator: " · ").last.flatMap { Int($0.suffix(4)) } }
        #expect(years == years.sorted(), "\(byDate)")
        // A limit still says when more match.
        let limited = try sandbox.run(["search", "lem", "--sort", "title", "--limit", "1"])
        #expect(limited.stdout.split(separator: "\n").count == 1 && limited.stderr.contains("More books match"), "\(limited)")
    }

    @Test func badOptionsAreUsageErrors() throws {
        let sandbox = try BooksSandbox()
        let predicate = try sandbox.run(["search", "lem", "--where", "nosuch == 1"])
        #expect(predicate.status == 64 && predicate.stderr.contains("Invalid --where predicate"), "\(predicate)")
        let formats = try sandbox.run(["search", "lem", "--json", "--format", "csv"])
        #expect(formats.status == 64, "\(formats)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }
}
