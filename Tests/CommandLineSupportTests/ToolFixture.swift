import CommandLineSupport
import Foundation

/// A small tool described with the framework, shaped like `books` (a global option, a root
/// flag, leaf subcommands with flags, ranged numbers, UUIDs and a repeating argument), so
/// that the parser and the help renderer are tested without either executable.
enum ToolFixture {
    static let store = Option<String>(
        "store", valueName: "path", help: "The store file.", isGlobal: true,
        validate: { $0.isEmpty ? .failure(ValueRejection("must be a file path")) : .success($0) })
    static let version = Flag("version", help: "Show the version.")

    enum List {
        static let byMonth = Flag("by-month", help: "Group the books under month headings.")
        static let limit = Option<Int>("limit", range: 1...Int.max, help: "Print at most N books.")
        static let json = Flag("json", help: "Print JSON (an array of objects) instead of text.")
        static let spec = CommandSpec(
            name: "list", abstract: "List the books.", options: [byMonth, limit, json])
    }

    enum Search {
        static let text = Argument<[String]>(repeating: "text", help: "The words to look for.")
        static let limit = Option<Int>(
            "limit", range: 0...Int.max,
            help: "Print the best N books (default 50); 0 prints every match.")
        static let spec = CommandSpec(
            name: "search", abstract: "Find books.",
            discussion: "Every word must occur in the title or the author's name.",
            arguments: [text], options: [limit, List.json])
    }

    enum Show {
        static let uuid = Argument<UUID>("uuid", help: "The book's identifier.")
        static let spec = CommandSpec(name: "show", abstract: "Show one book.", arguments: [uuid])
    }

    enum Add {
        static let title = Option<String>(
            "title", valueName: "title", help: "The title.", isRequired: true)
        static let author = Option<String>(
            "author", valueName: "author", help: "The author's name.", isRequired: true)
        static let spec = CommandSpec(name: "add", abstract: "Add a book.", options: [title, author])
    }

    enum Delete {
        static let id = Option<[String]>(
            repeating: "id", valueName: "id", help: "An identifier.", isRequired: true)
        static let spec = CommandSpec(name: "delete", abstract: "Delete books.", options: [id])
    }

    static let root = CommandSpec(
        name: "tool", abstract: "A test tool.", options: [store, version],
        subcommands: [List.spec, Search.spec, Show.spec, Add.spec, Delete.spec])

    /// Parses `words` against ``root``.
    static func parse(_ words: [String]) throws(UsageError) -> ParseOutcome {
        try CommandLineParser(root: root).parse(words)
    }

    /// The values of a command line that must run.
    static func run(_ words: String...) throws -> ParsedArguments {
        guard case .run(let parsed) = try parse(words) else {
            throw FixtureFailure(words: words)
        }
        return parsed
    }

    /// The usage error a command line raises, or `nil` when it parses.
    static func usageError(_ words: String...) -> UsageError? {
        do {
            _ = try parse(words)
            return nil
        } catch {
            return error
        }
    }

    /// The help the formatter renders for `path`.
    static func help(_ path: [String]) -> String {
        HelpFormatter(root: root).help(forCommandPath: path)
    }

    struct FixtureFailure: Error {
        var words: [String]
    }
}
