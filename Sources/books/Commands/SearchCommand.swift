import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// `books search <text> ... [--limit <n>] [--json]`.
struct SearchCommand: BooksCommand, Equatable {
    /// The query, and how to print its matches.
    var options: SearchOptions

    /// The words to look for.
    static let text = Argument<[String]>(
        repeating: "text", help: "The words to look for.", acceptsDashWords: true,
        validate: ValueFormats.nonBlank)
    /// `--limit <n>`: print the best N books; 0 prints every match.
    static let limit = Option<Int>(
        "limit", range: 0...Int.max,
        help: "Print the best N books (default \(SearchOptions.defaultLimit)); 0 prints every match, as list --limit 0 does.")
    /// `--json`: print JSON instead of text.
    static let json = ListCommand.json

    static let spec = CommandSpec(
        name: "search",
        abstract: "Find books by words of their title or author.",
        discussion: """
            Every word must occur in the title or the author's name, in any order; case and \
            accents are ignored, so "marquez cien" finds "Cien años de soledad". Best \
            matches first: the words as whole words, then at the start of words, then \
            anywhere.

            Also: "two words" next to each other; author:lem, title:"cien años", tag:scifi, \
            isbn:978-0-306 (the digits it starts with), year:1961, series:discworld, \
            publisher:penguin, status:read, rating:>=4, language:pt, added:2024-03; a \
            misspelled field is refused naming the fields; -word or -author:lem for \
            books without it; OR between terms for either (solaris author:lem OR \
            author:calvino is Solaris by Lem or by Calvino). Matches rank by the words every \
            match must contain; a query without any (year:1961, lem OR calvino) lists its \
            matches by title. --where, --sort (with --reverse), --format and --fields work \
            as for list: --where narrows the matches, --sort orders them as list does \
            instead of by rank.
            """,
        arguments: [text],
        options: [limit, json, ListCommand.predicate, ListCommand.sort, ListCommand.reverse, ListCommand.format, ListCommand.fields])

    static let examples: [CommandExample] = [
        CommandExample("books search marquez cien", "Books with both words in the title or author's name, best first."),
        CommandExample("books search author:lem -solaris", "Books by an author whose name has \"lem\" (Lem first), but not Solaris."),
        CommandExample("books search 'title:\"cien años\"'", "A phrase in the title, accents ignored."),
        CommandExample("books search year:1961 OR year:1962", "Books published in 1961 or 1962."),
        CommandExample("books search tag:scifi isbn:978-0", "Books tagged scifi whose ISBN starts with 9780."),
    ]
}

extension SearchCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        self.init(
            options: SearchOptions(
                text: (parsed[SearchCommand.text] ?? []).joined(separator: " "),
                limit: parsed[SearchCommand.limit].map { $0 == 0 ? nil : $0 }
                    ?? SearchOptions.defaultLimit,
                json: parsed[SearchCommand.json], predicate: parsed[ListCommand.predicate],
                order: parsed[ListCommand.sort].flatMap(ListingOrder.Key.init(rawValue:)).map {
                    ListingOrder(key: $0, reversed: parsed[ListCommand.reverse])
                },
                formatName: parsed[ListCommand.format].flatMap(ListFormat.init(rawValue:)),
                fields: parsed[ListCommand.fields].flatMap { try? BookField.parseList($0).get() }))
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        var options = options
        options.order?.collation = runner.collation
        try runner.search(options)
        return .success
    }
}

/// The options of `books search`.
struct SearchOptions: Equatable, Sendable {
    /// The query: the words given, joined by single spaces (`books search marquez cien` and
    /// `books search "marquez cien"` are the same query).
    var text: String
    /// `--limit N`: print at most the best N books; nil (`--limit 0`) prints every match, as
    /// `list --limit 0` prints every book.
    ///
    /// A search prints the best ``defaultLimit`` by default: a common word matches thousands
    /// of books in a large catalogue, more than a terminal shows, and the best matches come
    /// first. (`gh search` does the same.) When more match, a note on standard error says so.
    var limit: Int? = Self.defaultLimit
    /// How many books a search prints when `--limit` is not given.
    static let defaultLimit = 50
    /// `--json`: print JSON instead of text.
    var json = false
    /// `--where PREDICATE`: what every match must also satisfy, not yet parsed.
    var predicate: String?
    /// `--sort KEY [--reverse]`: the listing's order instead of the rank; nil ranks.
    var order: ListingOrder?
    /// `--format text|csv|json`, if given.
    var formatName: ListFormat?
    /// `--fields f1,f2,…`, as `list` takes them.
    var fields: [BookField]?

    /// The output format: `--format`, else JSON for `--json`, else text.
    var format: ListFormat { formatName ?? (json ? .json : .text) }

    /// Whether the search is printed as it always was: ranked lines, or its JSON objects.
    var isPlain: Bool { predicate == nil && order == nil && formatName == nil && fields == nil }

    /// The options of a listing that prints the matches as `list` prints books.
    var listing: ListOptions {
        var options = ListOptions()
        options.json = json
        options.formatName = formatName
        options.fields = fields
        return options
    }
}

extension CommandRunner {
    /// `books search`: the query, formats and predicate are checked before the store is
    /// opened. Ranked lines (or their JSON) as always; with `--where`, `--sort`, `--format` or
    /// `--fields`, printed as `list` prints books.
    fileprivate func search(_ options: SearchOptions) throws {
        try argument("search") { try Catalog.checkSearchText(options.text) }
        try checkFormat(json: options.json, format: options.formatName, command: "search")
        let predicate = try wherePredicate(options.predicate)
        let printer = printer()
        let catalog = try openSeededCatalog()
        var (printed, moreMatch) = (0, false)
        if options.isPlain {
            (printed, moreMatch) = try printer.search(
                catalog, query: options.text, limit: options.limit, json: options.json)
        } else {
            printed = try printer.list(catalog, options: options.listing) { body in
                var count = 0
                let limit = options.limit.map { $0 < Int.max ? $0 + 1 : $0 }
                try catalog.forEachSearchResult(options.text, matching: predicate, order: options.order, limit: limit) {
                    book in
                    if let limit = options.limit, count == limit {
                        moreMatch = true
                        return
                    }
                    count += 1
                    try body(book)
                }
            }
        }
        if printed == 0 && options.format == .text {
            Terminal.write("No books match \"\(QuotedText.forMessage(options.text))\".\n", to: STDERR_FILENO)
        }
        if moreMatch, let limit = options.limit {
            Terminal.write(
                "More books match; these are the best \(limit). Use --limit N to see more, --limit 0 to see all.\n",
                to: STDERR_FILENO)
        }
    }
}
