import BookCatalog
import CommandLineSupport
import Foundation
import Testing

@testable import books

/// `books`' command line as declared on the shared framework: its commands, defaults and
/// ranges, its help text and its usage errors. The framework itself (parsing rules,
/// suggestions, help layout) is tested in CommandLineSupportTests.
@Suite struct BooksCommandLineTests {
    let environment = ["HOME": "/home/ana"]

    func parse(_ words: String...) throws(UsageError) -> ParsedCommand {
        try BooksCommandLine.parse(words, environment: environment)
    }

    func usageError(_ words: String...) -> UsageError? {
        do {
            _ = try BooksCommandLine.parse(words, environment: environment)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Commands and values

    @Test func listReadsFlagsAndBothOptionSpellings() throws {
        let command = try parse(
            "list", "--by-month", "--where", "price < 15", "--limit=3", "--json")
        #expect(
            command.command as? ListCommand == ListCommand(options: ListOptions(byMonth: true, predicate: "price < 15", limit: 3, json: true)))
    }

    @Test func listWithoutOptionsHasDefaults() throws {
        #expect(try parse("list").command as? ListCommand == ListCommand(options: ListOptions()))
    }

    @Test func globalStoreIsAcceptedBeforeAndAfterTheSubcommand() throws {
        let before = try parse("--store", "/tmp/a.sqlite", "list")
        let after = try parse("list", "--store=/tmp/a.sqlite")
        #expect(before.storeURL.path == "/tmp/a.sqlite")
        #expect(after.storeURL == before.storeURL)
        #expect(after.command as? ListCommand == ListCommand(options: ListOptions()))
    }

    @Test func seedCountDefaultsToZeroAndIsRangeChecked() throws {
        #expect(try parse("seed").command as? SeedCommand == SeedCommand(options: SeedOptions()))
        #expect(try parse("seed", "--count", "500").command as? SeedCommand == SeedCommand(options: SeedOptions(syntheticCount: 500)))
        #expect(
            try parse("seed", "--file", "b.json", "--batch-size", "1").command as? SeedCommand == SeedCommand(options: SeedOptions(file: "b.json", batchSize: 1)))
        #expect(
            usageError("seed", "--count", "-1")?.message
                == "The value '-1' is invalid for '--count <n>': must be at least 0")
        #expect(
            usageError("seed", "--count", "10000001")?.message
                == "The value '10000001' is invalid for '--count <n>': must be at most 10000000")
    }

    @Test func searchJoinsItsWordsIntoOneQuery() throws {
        let command = try parse("search", "marquez", "cien", "--limit", "2")
        #expect(
            command.command as? SearchCommand == SearchCommand(options: SearchOptions(text: "marquez cien", limit: 2, json: false)))
        #expect(try parse("search", "marquez cien", "--limit", "2").command as? SearchCommand == command.command as? SearchCommand)
    }

    @Test func doubleDashEndsOptions() throws {
        let command = try parse("search", "--json", "--", "--help", "-x")
        #expect(command.command as? SearchCommand == SearchCommand(options: SearchOptions(text: "--help -x", limit: 50, json: true)))
    }

    @Test func searchPrintsTheBestFiftyUnlessTold() throws {
        #expect(try parse("search", "ring").command as? SearchCommand == SearchCommand(options: SearchOptions(text: "ring", limit: 50)))
        #expect(try parse("search", "ring", "--limit", "0").command as? SearchCommand == SearchCommand(options: SearchOptions(text: "ring", limit: nil)))
        #expect(
            usageError("search", "ring", "--limit", "-1")?.message
                == "The value '-1' is invalid for '--limit <n>': must be at least 0")
    }

    @Test func negativeNumbersAreValuesNotOptions() throws {
        #expect(try parse("search", "-5").command as? SearchCommand == SearchCommand(options: SearchOptions(text: "-5")))
        #expect(
            usageError("list", "--limit", "-3")?.message
                == "The value '-3' is invalid for '--limit <n>': must be at least 0")
    }

    @Test func addKeepsItsValuesAsTypedForTheCatalogueToCheck() throws {
        let command = try parse(
            "add", "--title", "Cien años de soledad", "--author", "Gabriel García Márquez",
            "--date", "2023-02-30", "--price", "19,99", "--color", "red")
        guard let book = (command.command as? AddCommand)?.book else {
            Issue.record("expected add, got \(command.action)")
            return
        }
        // Malformed values are bad data (exit 65), checked by BookInput, not usage errors.
        #expect(book.title == "Cien años de soledad")
        #expect(book.authors == ["Gabriel García Márquez"])
        #expect(book.date == "2023-02-30")
        #expect(book.price == "19,99")
        #expect(book.color == "red")
    }

    @Test func addReportsTheFirstMissingRequiredOption() {
        let error = usageError("add", "--title", "T")
        #expect(error?.reason == .missingArgument("--author <author>"))
    }

    @Test func showAndDeleteTakeAUUIDOrAPrefixInAnyCase() throws {
        let id = try #require(BookIDPrefix("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(try parse("show", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f").command as? ShowCommand == ShowCommand(id: id))
        #expect(try parse("delete", "E621E1F8C36C495A93FC0C247A3E6E5F").command as? DeleteCommand == DeleteCommand(options: DeleteOptions(ids: [id])))
        #expect(try parse("show", "e621").command as? ShowCommand == ShowCommand(id: try #require(BookIDPrefix("E621"))))
        #expect(try parse("show", "e621e1f8-c3").command as? ShowCommand == ShowCommand(id: try #require(BookIDPrefix("E621E1F8C3"))))
        for bad in ["nope", "e62", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f0", "e621 e1f8"] {
            #expect(
                usageError("show", bad)?.message
                    == "The value '\(bad)' is invalid for '<id>': must be a book's ID: 4 to 32 hexadecimal digits of its UUID (hyphens allowed)")
        }
        // Without IDs, `delete` may still have --where; the runner refuses neither (64).
        #expect(try parse("delete").command as? DeleteCommand == DeleteCommand(options: DeleteOptions()))
    }

    // MARK: - Help and version

    @Test func helpIsReachedEveryWay() throws {
        let listHelp = BooksCommandLine.helpText(forCommandPath: ["list"])
        #expect(try parse("help", "list").helpText == listHelp)
        #expect(try parse("list", "--help").helpText == listHelp)
        #expect(try parse("list", "-h").helpText == listHelp)
        #expect(try parse("--help", "list").helpText == listHelp)
        #expect(try parse("list", "--limit", "zero", "--bogus", "-h").helpText == listHelp)
        let rootHelp = BooksCommandLine.helpText(forCommandPath: [])
        #expect(try parse().helpText == rootHelp)
        #expect(try parse("help").helpText == rootHelp)
        #expect(try parse("--help").helpText == rootHelp)
        #expect(try parse("--store", "x", "-h").helpText == rootHelp)
    }

    @Test func versionIsARootFlag() throws {
        #expect(try parse("--version").isVersion)
        #expect(
            usageError("list", "--version")?.reason == .unknownOption("--version", suggestion: nil))
    }

    @Test func rootHelpListsOptionsAndSubcommands() {
        let help = BooksCommandLine.helpText(forCommandPath: [])
        #expect(help.hasPrefix("OVERVIEW: A command-line book catalogue.\n"))
        #expect(help.contains("\nUSAGE: books <subcommand> [--store <path>]\n"))
        #expect(help.contains("\n  --version               Show the version.\n"))
        #expect(help.contains("\n  -h, --help              Show help information.\n"))
        #expect(
            help.contains(
                "\nSUBCOMMANDS:\n  seed                    Load the seed books (and optionally N synthetic ones).\n"
            ))
        for name in ["list", "search", "add", "show", "delete", "help"] {
            #expect(help.contains("\n  \(name) "), "root help lacks \(name)")
        }
        #expect(help.hasSuffix("\n  See 'books help <subcommand>' for detailed help.\n"))
    }

    @Test func subcommandHelpHasOverviewUsageArgumentsAndOptions() {
        let help = BooksCommandLine.helpText(forCommandPath: ["search"])
        #expect(help.hasPrefix("OVERVIEW: Find books by words of their title or author.\n\n"))
        #expect(
            help.contains(
                "\nUSAGE: books search <text> ... [--limit <n>] [--json] [--where <predicate>]\n"
                    + "                    [--sort <key>] [--reverse] [--format <format>]\n"
                    + "                    [--fields <list>] [--store <path>]\n"))
        #expect(help.contains("\nARGUMENTS:\n  <text>                  The words to look for.\n"))
        #expect(help.contains("\n  --limit <n>             Print the best N books (default 50); 0 prints every\n"))
        #expect(help.contains("\n  --store <path>          The catalogue store"))
        #expect(!help.contains("SUBCOMMANDS"))
    }

    @Test func everyHelpLineFitsIn80Columns() {
        for path in [[], ["help"]] + BooksCommandLine.root.subcommands.map({ [$0.name] }) {
            for line in BooksCommandLine.helpText(forCommandPath: path).split(separator: "\n") {
                #expect(line.count <= 80, "\(path): \(line)")
            }
        }
    }

    @Test func longUsageWrapsAfterTheCommandName() {
        let usage = HelpFormatter(root: BooksCommandLine.root).usage(forCommandPath: ["list"])
        #expect(
            usage == """
                books list [--by-month] [--where <predicate>] [--since <date>]
                                  [--until <date>] [--sort <key>] [--reverse] [--limit <n>]
                                  [--format <format>] [--fields <list>] [--json]
                                  [--store <path>]
                """)
    }

    // MARK: - Usage errors

    @Test func unknownOptionSuggestsTheNearestOnOneLine() {
        let error = usageError("list", "--by-mnth")
        #expect(error?.reason == .unknownOption("--by-mnth", suggestion: "--by-month"))
        #expect(error?.exitCode == .usage)
        #expect(error?.exitCode.rawValue == 64)
        #expect(
            error?.description
                == "Error: Unknown option '--by-mnth'. Did you mean '--by-month'? See 'books help list'.\n")
    }

    @Test func suggestionsStopAtTwoEdits() {
        #expect(
            usageError("list", "--jsno")?.reason == .unknownOption("--jsno", suggestion: "--json"))
        #expect(
            usageError("list", "--bymonthly")?.reason
                == .unknownOption("--bymonthly", suggestion: nil))
        #expect(
            usageError("list", "--frobnicate")?.reason
                == .unknownOption("--frobnicate", suggestion: nil))
        #expect(
            usageError("list", "-by-month")?.reason
                == .unknownOption("-by-month", suggestion: "--by-month"))
        #expect(usageError("list", "-x")?.message == "Unknown option '-x'")
        #expect(usageError("list", "---json")?.message
            == "Unknown option '---json'. Did you mean '--json'?")
    }

    /// `--sort` is two edits from the global `--store`, an option for a file: it is `list`'s
    /// own option, and a near miss of it is sent to it, never to `--store`.
    @Test func sortIsNotTakenForStore() throws {
        #expect(usageError("list", "--sort")?.reason == .missingValue(option: "--sort <key>"))
        #expect(try parse("list", "--sort", "title").command as? ListCommand == ListCommand(options: ListOptions(order: ListingOrder(key: .title))))
        #expect(usageError("list", "--sortt", "title")?.reason == .unknownOption("--sortt", suggestion: "--sort"))
        #expect(
            usageError("list", "--by-month=yes")?.reason
                == .unexpectedValue("yes", flag: "--by-month"))
        #expect(usageError("list", "--jsn=yes")?.reason == .unknownOption("--jsn", suggestion: nil))
    }

    @Test func unknownCommandSuggestsTheNearest() {
        let error = usageError("lst")
        #expect(error?.message == "Unknown command 'lst'. Did you mean 'list'?")
        #expect(error?.description == "Error: Unknown command 'lst'. Did you mean 'list'? See 'books help'.\n")
        #expect(usageError("serach")?.reason == .unknownCommand("serach", suggestion: "search"))
        #expect(usageError("frobnicate")?.reason == .unknownCommand("frobnicate", suggestion: nil))
        #expect(usageError("help", "lst")?.reason == .unknownCommand("lst", suggestion: "list"))
        #expect(usageError("lst", "--help")?.reason == .unknownCommand("lst", suggestion: "list"))
    }

    @Test func missingAndInvalidValuesNameTheOptionAndItsHelp() throws {
        let missing = usageError("list", "--limit")
        #expect(missing?.message == "Missing value for '--limit <n>'")
        #expect(missing?.description == "Error: Missing value for '--limit <n>'. See 'books help list'.\n")
        #expect(
            usageError("list", "--limit", "--json")?.message == "Missing value for '--limit <n>'")
        #expect(
            usageError("list", "--limit", "abc")?.message
                == "The value 'abc' is invalid for '--limit <n>'")
        // 0 means all, for list as for search.
        #expect(try parse("list", "--limit", "0").command as? ListCommand == ListCommand(options: ListOptions()))
        #expect(usageError("--store")?.message == "Missing value for '--store <path>'")
        #expect(
            usageError("list", "--store=")?.message
                == "The value '' is invalid for '--store <path>': must be a file path")
    }

    @Test func missingAndExtraArgumentsAreReported() {
        #expect(usageError("search")?.message == "Missing expected argument '<text>'")
        #expect(usageError("list", "extra")?.message == "Unexpected argument 'extra'")
        #expect(usageError("list", "a", "b")?.message == "2 unexpected arguments: 'a', 'b'")
        #expect(usageError("help", "list", "x")?.message == "Unexpected argument 'x'")
        #expect(
            usageError("list", "--json=yes")?.message
                == "The option '--json' does not take any value, but 'yes' was specified.")
    }
}

extension ParsedCommand {
    /// The text a help request prints, nil for a command to run or `--version`.
    var helpText: String? {
        guard case .help(let text) = action else { return nil }
        return text
    }

    /// Whether this is `--version`.
    var isVersion: Bool {
        guard case .version = action else { return false }
        return true
    }
}
