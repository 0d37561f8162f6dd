import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// `books check`.
struct CheckCommand: BooksCommand, Equatable {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Check the catalogue file for damage.",
        discussion: """
            Runs SQLite's integrity check and checks the catalogue against its model: the \
            search index, key counters, links between books and authors, and files beside the \
            store. Prints one line per problem, or that the catalogue is healthy; exits 0 when \
            it is, 1 when it is damaged. Reads only; never creates the catalogue.
            """)

    static let examples: [CommandExample] = [
        CommandExample("books check", "Check the catalogue file for damage; exits 1 when it is damaged."),
    ]
}

extension CheckCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        try runner.check()
        return .success
    }
}

extension CommandRunner {
    /// `books check`: one line per problem on standard output, exit 1 when there is any.
    /// Never creates the store (a missing one is an error).
    fileprivate func check() throws {
        guard !ServerStoreURL.isServer(command.storeURL) else {
            throw CommandFailure(
                message: "books check reads a catalogue file; a PostgreSQL server checks its own databases (amcheck)",
                code: .runtimeError)
        }
        // The checks (key counters, search index, history) are of the catalogue's own store.
        if CoreDataStore.isCoreDataStore(at: command.storeURL) {
            throw CommandFailure(
                message: "books check checks the catalogue's own stores; \(command.storeURL.path) is a store Core Data "
                    + "wrote (persistence-tool store export reads every object of it)",
                code: .runtimeError)
        }
        let result = try Catalog.check(storeURL: command.storeURL)
        guard !result.isHealthy else {
            try output.write("The catalogue \(command.storeURL.path) is healthy.\n")
            return
        }
        for problem in result.problems { try output.write(QuotedText.forDisplay(problem) + "\n") }
        throw CommandFailure(
            message: "The catalogue \(command.storeURL.path) is damaged: \(result.problems.count) "
                + (result.problems.count == 1 ? "problem" : "problems") + " found.",
            code: .runtimeError)
    }
}
