import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// `books list [--by-month] [--where <predicate>] [--since <date>] [--until <date>]
/// [--sort <key>] [--reverse] [--limit <n>] [--format <format>] [--fields <list>] [--json]`.
struct ListCommand: BooksCommand, Equatable {
    /// What to list, and how.
    var options: ListOptions

    /// `--by-month`: group the books under month headings.
    static let byMonth = Flag("by-month", help: "Group the books under month headings.")
    /// `--where <predicate>`: only the books the predicate matches.
    static let predicate = Option<String>(
        "where", valueName: "predicate",
        help: "Only books matching PREDICATE, such as \"price < 15\" or 'publishDate > \"2020-01-01\"'.",
        validate: ValueFormats.nonBlank)
    /// `--since <date>`: only books published on or after the date.
    static let since = Option<String>(
        "since", valueName: "date", help: "Only books published on or after DATE (yyyy, yyyy-mm or yyyy-mm-dd).",
        validate: ValueFormats.typedDate)
    /// `--until <date>`: only books published on or before the date.
    static let until = Option<String>(
        "until", valueName: "date",
        help: "Only books published on or before DATE; a year or month counts whole (--until 1969 includes Dec 31).",
        validate: ValueFormats.typedDate)
    /// `--sort <key>`: the order of the listing.
    static let sort = Option<String>(
        "sort", valueName: "key", choices: ListingOrder.Key.allCases.map(\.rawValue),
        help: "Sort by title, author (the first), date (newest first; the default), price, added (newest first) or series.")
    /// `--reverse`: the same order, backwards.
    static let reverse = Flag("reverse", help: "Reverse the order.")
    /// `--limit <n>`: print at most N books; 0 prints all.
    static let limit = Option<Int>("limit", range: 0...Int.max, help: "Print at most N books; 0 prints all (the default).")
    /// `--format <format>`: text, CSV or JSON.
    static let format = Option<String>(
        "format", valueName: "format", choices: ListFormat.allCases.map(\.rawValue),
        help: "text (the default), csv (RFC 4180) or json.")
    /// `--fields <list>`: which fields to print.
    static let fields = Option<String>(
        "fields", valueName: "list", help: "The fields to print, such as id,title,author; one of \(BookField.names).",
        validate: ValueFormats.fieldList)
    /// `--json`: print JSON instead of text.
    static let json = Flag("json", help: "Print JSON (an array of objects) instead of text; the same as --format json.")

    static let spec = CommandSpec(
        name: "list",
        abstract: "List the books in the catalogue.",
        discussion: """
            Books are listed newest first, then by title. --sort title and --sort author go \
            A to Z ignoring case and accents (by the first author), in the order of the \
            alphabet of LC_ALL, LC_COLLATE or LANG (sv: Å, Ä, Ö after Z), leading articles \
            of titles and series skipped (The Hobbit under H in English), --sort price lowest \
            first, --sort added newest first, --sort series by series then number; books \
            whose date, price or series is unknown come last; ties fall by title, then by \
            UUID, and --reverse turns the whole order around. With --by-month, months stay newest first (oldest first for \
            --sort date --reverse) and the books of each month are sorted; a heading counts \
            the month's books, "March 1961 (2 of 5)" when --limit stops within it. CSV has \
            a header row and no month headings. When no book matches, text output says so \
            on standard error; CSV prints only its header and JSON an empty array. Exit \
            status 0 either way.
            """,
        options: [byMonth, predicate, since, until, sort, reverse, limit, format, fields, json])

    static let examples: [CommandExample] = [
        CommandExample("books list --by-month --limit 5", "The five newest books, under month headings."),
        CommandExample(
            "books list --where 'price < 10 AND author.name BEGINSWITH[cd] \"gabriel\"'",
            "The books a Core Data predicate matches."),
        CommandExample("books list --json", "Every book as JSON."),
    ]
}

extension ListCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        self.init(
            options: ListOptions(
                byMonth: parsed[ListCommand.byMonth], predicate: parsed[ListCommand.predicate],
                limit: parsed[ListCommand.limit].flatMap { $0 == 0 ? nil : $0 }, json: parsed[ListCommand.json],
                formatName: parsed[ListCommand.format].flatMap(ListFormat.init(rawValue:)),
                fields: parsed[ListCommand.fields].flatMap { try? BookField.parseList($0).get() },
                order: ListingOrder(
                    key: parsed[ListCommand.sort].flatMap(ListingOrder.Key.init(rawValue:)) ?? .date,
                    reversed: parsed[ListCommand.reverse]),
                since: parsed[ListCommand.since], until: parsed[ListCommand.until]))
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        var options = options
        options.order.collation = runner.collation
        try runner.list(options)
        return .success
    }
}

/// The options of `books list`.
struct ListOptions: Equatable, Sendable {
    /// `--by-month`: group the books under month headings.
    var byMonth = false
    /// `--where PREDICATE`: the predicate text, not yet parsed (the catalogue parses it).
    var predicate: String?
    /// `--limit N`: print at most this many books; nil (`--limit 0` or none) prints all.
    var limit: Int?
    /// `--json`: print JSON instead of text (the same as `--format json`).
    var json = false
    /// `--format text|csv|json`, if given.
    var formatName: ListFormat?
    /// `--fields f1,f2,…`: the fields to print, in order; nil for each format's default.
    var fields: [BookField]?
    /// `--sort KEY [--reverse]`.
    var order = ListingOrder()
    /// `--since DATE`: only books published on or after it.
    var since: String?
    /// `--until DATE`: only books published on or before it (a year or month counts whole).
    var until: String?

    /// The output format: `--format`, else JSON for `--json`, else text.
    var format: ListFormat { formatName ?? (json ? .json : .text) }
}

extension CommandRunner {
    /// `books list`: the predicate and dates are checked before the store is opened. When no
    /// book is printed, text output says so on standard error (stdout stays empty, as CSV's
    /// header and JSON's empty array are all they print), exit status 0, as `search` does.
    fileprivate func list(_ options: ListOptions) throws {
        try checkFormat(json: options.json, format: options.formatName, command: "list")
        var predicate = try wherePredicate(options.predicate)
        if let dates = try Catalog.publicationPredicate(since: options.since, until: options.until) {
            predicate = predicate.map { $0 && dates } ?? dates
        }
        let printer = printer()
        let catalog = try openSeededCatalog()
        let printed = try printer.list(catalog, predicate: predicate, options: options)
        if printed == 0 && options.format == .text {
            let filtered = options.predicate != nil || options.since != nil || options.until != nil
            Terminal.write(filtered ? "No books match.\n" : "The catalogue has no books.\n", to: STDERR_FILENO)
        }
    }
}
