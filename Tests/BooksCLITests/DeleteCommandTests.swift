import Foundation
import Testing

/// `books delete ID… [--where P] [--yes]`, run as the built binary: several books in one
/// save, a confirmation on a terminal, and a refusal without `--yes` anywhere else.
@Suite struct DeleteCommandTests {
    private static let solaris = "A9EF420F-038E-4072-AE51-5CF9E8D16E6A"

    private static func uuids(_ sandbox: BooksSandbox, where predicate: String) throws -> [String] {
        try sandbox.run(["list", "--json", "--where", predicate]).jsonObjects().compactMap { $0["uuid"] as? String }
    }

    @Test func severalIDsAndAPredicateAreDeletedTogether() throws {
        let sandbox = try BooksSandbox.seeded()
        let count = try sandbox.bookCount()
        let cheap = try Self.uuids(sandbox, where: "price < 10")
        #expect(!cheap.isEmpty)
        let run = try sandbox.run(["delete", "a9ef420f", Self.solaris, "--where", "price < 10", "--yes"])
        #expect(run.status == 0, "\(run)")
        let gone = [Self.solaris] + cheap.filter { $0 != Self.solaris }
        #expect(run.stdout == gone.map { "Deleted \($0).\n" }.joined())
        #expect(try sandbox.bookCount() == count - gone.count)
    }

    @Test func withoutYesAndWithoutATerminalNothingIsDeleted() throws {
        let sandbox = try BooksSandbox.seeded()
        let count = try sandbox.bookCount()
        let run = try sandbox.run(["delete", "a9ef420f"])
        #expect(run.status == 64, "\(run)")
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr == "Error: Deleting asks for confirmation, and standard input is not a terminal: "
                + "add --yes to delete without asking. Nothing was deleted.\n")
        #expect(try sandbox.bookCount() == count)
    }

    @Test(.enabled(if: TerminalTests.PseudoTerminal.isAvailable))
    func onATerminalTheBooksAreListedAndYesDeletesThem() throws {
        let sandbox = try BooksSandbox.seeded()
        let count = try sandbox.bookCount()
        let run = try sandbox.run(["delete", "a9ef420f"], typing: "y\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr == "This book will be deleted:\n  A9EF420F  Solaris — Stanisław Lem\nDelete it? [y/N] ", "\(run)")
        #expect(run.stdout == "Deleted \(Self.solaris).\n")
        #expect(try sandbox.bookCount() == count - 1)
    }

    @Test(.enabled(if: TerminalTests.PseudoTerminal.isAvailable), arguments: ["n\n", "\n", "\u{4}"])
    func onATerminalAnyOtherAnswerDeletesNothing(answer: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let count = try sandbox.bookCount()
        let run = try sandbox.run(["delete", "--where", "price < 10"], typing: answer)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.hasPrefix("These "), "\(run)")
        #expect(run.stderr.hasSuffix("Delete them? [y/N] \(answer == "\u{4}" ? "\n" : "")Error: Not confirmed; nothing was deleted.\n"), "\(run)")
        #expect(run.stdout.isEmpty)
        #expect(try sandbox.bookCount() == count)
    }

    @Test func aPredicateThatMatchesNothingDeletesNothing() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["delete", "--where", "price > 1000000"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr == "No books match; nothing was deleted.\n")
        let none = try sandbox.run(["delete"])
        #expect(none.status == 64 && none.stderr.hasPrefix("Error: Nothing to delete: give book IDs or --where"), "\(none)")
    }

    @Test func oneIDThatNamesNoBookDeletesNoneOfTheOthers() throws {
        let sandbox = try BooksSandbox.seeded()
        let count = try sandbox.bookCount()
        let run = try sandbox.run(["delete", "a9ef420f", "ffffffff", "--yes"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr == "Error: The catalogue has no book whose ID begins with FFFFFFFF.\n")
        #expect(try sandbox.bookCount() == count)
    }
}
