import BookCatalog
import Foundation

/// A `books` command line, parsed and checked: what to do and which store to do it on.
///
/// Produced by ``BooksCommandLine/parse(_:environment:)``; `main.swift` switches on
/// ``action``.
struct ParsedCommand: Equatable, Sendable {
    /// What the user asked for.
    enum Action: Equatable, Sendable {
        /// `books seed [--file PATH] [--count N] [--batch-size N]`: load the seed books, plus
        /// made-up ones.
        case seed(SeedOptions)
        /// `books list …`.
        case list(ListOptions)
        /// `books search TEXT … [--limit N] [--json]`.
        case search(SearchOptions)
        /// `books add …`.
        case add(BookEdit, allowDuplicate: Bool)
        /// `books show ID`: a UUID or a prefix of one.
        case show(BookIDPrefix)
        /// `books edit ID --field value…`: the changes as typed.
        case edit(BookIDPrefix, BookEdit)
        /// `books delete ID… [--where P] [--yes]`.
        case delete(DeleteOptions)
        /// `books import FILE [--skip-invalid] [--prefer-file] [--dry-run]`.
        case `import`(ImportOptions)
        /// `books export [--format F] [-o FILE]`.
        case export(ExportOptions)
        /// `books check`: check the store for damage.
        case check
        /// `books stats [--top N] [--ascii] [--json]`: charts of the catalogue.
        case stats(StatsOptions)
        /// `books history [--limit N]`: the last changes to the catalogue.
        case history(limit: Int)
        /// `books undo`: undo the last command that changed the catalogue.
        case undo
        /// `books redo`.
        case redo
        /// `books help [COMMAND]`, `--help`, `-h`, no subcommand, `books completions SHELL`
        /// or `books man`: print this text to standard output as is (it ends with a newline)
        /// and exit 0.
        case help(String)
        /// `books --version`: print ``BooksCommandLine/version`` and exit 0.
        case version
    }

    /// What to do.
    var action: Action
    /// The store file, resolved by ``StorePath/resolve(option:environment:)``.
    var storeURL: URL
}

/// The options of `books seed`.
struct SeedOptions: Equatable, Sendable {
    /// `--file PATH`: a seed file to load instead of the bundled one.
    var file: String?
    /// `--count N`: how many synthetic books to add (0 for none).
    var syntheticCount = 0
    /// `--batch-size N`: how many books each save holds.
    var batchSize = Catalog.defaultSeedBatchSize
    /// `--remove`: take the sample books out instead of loading books (the parser refuses
    /// it with `--file`, `--count` or `--batch-size`).
    var removesSampleBooks = false
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

/// The options of `books delete`.
struct DeleteOptions: Equatable, Sendable {
    /// The IDs given, as typed.
    var ids: [BookIDPrefix] = []
    /// `--where PREDICATE`: the predicate text, not yet parsed.
    var predicate: String?
    /// `--yes`: delete without asking.
    var assumeYes = false
}

/// The options of `books import`.
struct ImportOptions: Equatable, Sendable {
    /// The file, or `-` for standard input.
    var file: String
    /// `--skip-invalid`: import the valid books of a file with invalid ones.
    var skipInvalid = false
    /// `--prefer-file`: where the reader and the file both changed a field since the last
    /// import of the file's source, take the file's value.
    var preferFile = false
    /// `--dry-run`: say what the import would do, and write nothing.
    var dryRun = false
}

/// The options of `books export`.
struct ExportOptions: Equatable, Sendable {
    /// `--format`: as given, or from the output file's extension (`.csv`), else JSON.
    var format: ExportFormat
    /// `-o FILE`: where to write; standard output when nil.
    var output: String?
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

extension ParsedCommand {
    /// Whether the command reads or writes the store (all but help and `--version`).
    var usesStore: Bool {
        switch action {
        case .help, .version: false
        default: true
        }
    }
}
