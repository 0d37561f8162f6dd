import Foundation
import Testing

/// `books history [--limit N]`, run as the built binary: the commands that changed the
/// catalogue, newest first, with the books they changed, from the store's persistent history.
@Suite struct HistoryCommandTests {
    private static let solaris = "A9EF420F-038E-4072-AE51-5CF9E8D16E6A"

    /// The history's lines without the time stamps, which differ from run to run.
    static func lines(_ run: BooksRun) -> [String] {
        run.stdoutLines.filter { !$0.isEmpty }.map { line in
            guard line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { return line }
            // "#2  2026-11-26T10:41:08Z  books edit: …" → "#2  books edit: …"
            let rest = line[space...].drop { $0 == " " }
            return String(line[..<space]) + "  " + String(rest.drop { $0 != " " }.drop { $0 == " " })
        }
    }

    @Test func historyShowsEachCommandNewestFirstWithItsBooks() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--title", "Solaris II", "--price", "9.99"]).status == 0)
        let added = try sandbox.run(["add", "--title", "Nowy", "--author", "Ktoś", "--date", "2020-01-02", "--price", "1"])
        #expect(added.status == 0, "\(added)")
        let newID = added.addedID
        #expect(try sandbox.run(["delete", newID, "--yes"]).status == 0)

        let run = try sandbox.run(["history"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(
            Self.lines(run) == [
                "#4  books delete: deleted 1 book",
                "    deleted  \(newID)  Nowy",
                "#3  books add: added 1 book",
                "    added    \(newID)  Nowy",
                "#2  books edit: updated 1 book",
                "    updated  A9EF420F  Solaris II: price, title",
                "#1  books seed: added 459 books",
                "    added    DAD1D83A  Tirant lo Blanch",
            ] + Array(Self.lines(run).dropFirst(8).prefix(2)) + ["    … and 456 books more"], "\(run)")
        // A time stamp in ISO 8601, UTC.
        #expect(run.stdoutLines.first?.range(of: #"^#4  \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ  books delete"#, options: .regularExpression) != nil)

        let last = try sandbox.run(["history", "--limit", "1"])
        // A deleted book keeps its title in the history (model version 3 preserves it).
        #expect(Self.lines(last) == ["#4  books delete: deleted 1 book", "    deleted  \(newID)  Nowy"], "\(last)")
    }

    @Test func aCatalogueWithoutHistorySaysSoAndIsNotChanged() throws {
        let sandbox = try BooksSandbox()
        let missing = try sandbox.run(["history"])
        #expect(missing.status == 0 && missing.stdout.isEmpty && missing.stderr.hasPrefix("No changes recorded"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
        // A listing creates the catalogue with the sample books, its seed the history's first
        // entry; reading the history changes nothing.
        #expect(try sandbox.run(["list", "--limit", "1"]).status == 0)
        let before = try Data(contentsOf: sandbox.store)
        let seeded = try sandbox.run(["history"])
        #expect(seeded.status == 0 && Self.lines(seeded).first == "#1  books seed: added 459 books", "\(seeded)")
        #expect(try Data(contentsOf: sandbox.store) == before)
    }

    @Test func aBadLimitIsAUsageError() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["history", "--limit", "0"])
        #expect(run.status == 64 && run.stderr.hasPrefix("Error: The value '0' is invalid for '--limit <n>'"), "\(run)")
    }

    /// A command that saves in batches (a seed of many books) is one entry, numbered by the
    /// range of its transactions, as `undo` takes it back whole.
    @Test func aSeedInBatchesIsOneEntry() throws {
        let sandbox = try BooksSandbox()
        let seed = try sandbox.run(["seed", "--count", "120", "--batch-size", "50"])
        #expect(seed.status == 0, "\(seed)")
        let run = try sandbox.run(["history"])
        let lines = Self.lines(run)
        #expect(lines.first?.hasPrefix("#1–") == true && lines.first?.hasSuffix("books seed: added 579 books") == true, "\(run)")
        #expect(lines.filter { $0.hasPrefix("#") }.count == 1, "\(run)")
    }
}

extension HistoryCommandTests {
    /// The seed a first listing makes is the history's first entry, and undo takes it back.
    @Test func theFirstAutomaticSeedIsRecorded() throws {
        let sandbox = try BooksSandbox()
        let list = try sandbox.run(["list", "--limit", "1"])
        #expect(list.status == 0, "\(list)")
        let run = try sandbox.run(["history"])
        #expect(Self.lines(run).first == "#1  books seed: added 459 books", "\(run)")
        let undo = try sandbox.run(["undo"])
        #expect(undo.stdout == "Undid books seed (#1): removed 459 books.\n", "\(undo)")
        #expect(try sandbox.bookCount() == 0)
    }
}
