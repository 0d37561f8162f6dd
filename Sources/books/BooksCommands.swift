import BookCatalog
import CommandLineSupport
import Foundation

// The subcommands of `books`, each declared once: its spec (for the parser and the help) and
// its options and arguments as typed keys, which `BooksCommandLine` reads back
// (`parsed[SeedCommand.batchSize]` is an `Int?`; a misspelled key does not compile).

/// `books seed [--file <path>] [--count <n>] [--batch-size <n>] [--remove]`.
enum SeedCommand {
    /// `--file <path>`: a seed file (or `-`) instead of the bundled books.
    static let file = Option<String>(
        "file", valueName: "path",
        help: "Load the books of this JSON file (- for standard input) instead of the bundled ones.",
        isPath: true, validate: ValueFormats.storePath)
    /// `--count <n>`: how many synthetic books to add.
    static let count = Option<Int>(
        "count", range: 0...10_000_000, help: "Also add N synthetic books (0 to 10000000).")
    /// `--batch-size <n>`: how many books each save holds.
    static let batchSize = Option<Int>(
        "batch-size", range: 1...1_000_000,
        help: "Save every N books (default \(Catalog.defaultSeedBatchSize)).")

    /// `--remove`: take the sample books out.
    static let remove = Flag(
        "remove", help: "Take the bundled sample books out instead (those you changed stay); undo brings them back.")

    static let spec = CommandSpec(
        name: "seed",
        abstract: "Load the seed books (and optionally N synthetic ones).",
        discussion: """
            The seed books are real books with accented titles; --file loads another file \
            in the same format (a JSON array of objects with uuid, title, author, \
            publishDate, price and color). Synthetic books are for trying out large \
            catalogues: book number i is always the same book, so seeding --count N again \
            adds nothing and the count does not grow. The file is checked \
            whole before anything is written. Books are saved in batches (a large batch \
            commits early, about once a second, so other writers wait their turn); a seed \
            stopped by SIGINT, SIGTERM or SIGHUP, or by a full disk, keeps what it \
            committed and says how much. Seeding is idempotent: books are matched by UUID, \
            and a book already in the catalogue is left exactly as it is (a sample book you \
            rated or tagged keeps that). The sample books are a demo: --remove takes out \
            those still as the seed left them.
            """,
        options: [file, count, batchSize, remove])
}

/// `books list [--by-month] [--where <predicate>] [--since <date>] [--until <date>]
/// [--sort <key>] [--reverse] [--limit <n>] [--format <format>] [--fields <list>] [--json]`.
enum ListCommand {
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
}

/// `books search <text> ... [--limit <n>] [--json]`.
enum SearchCommand {
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
}

/// `books add --title <title> --author <author> --date <yyyy-mm-dd> --price <price>
/// [--color <#rrggbb>]`. The values are kept as typed: the catalogue checks them, and a
/// malformed one is bad data (65), not a usage error.
enum AddCommand {
    static let title = Option<String>(
        "title", valueName: "title", help: "The title, 1 to 500 characters.", isRequired: true)
    static let author = Option<[String]>(
        repeating: "author", valueName: "author", help: "An author's name; repeat for each author, first author first.",
        isRequired: true)

    /// `--allow-duplicate`: add a book of the same title and authors as one already there.
    static let allowDuplicate = Flag(
        "allow-duplicate", help: "Add the book even when one of the same title and authors is already there.")

    static let spec = CommandSpec(
        name: "add",
        abstract: "Add a book.",
        discussion: """
            Takes every field books edit takes; only the title and an author are required \
            (an unknown date or price is shown as —). The price is a plain number with '.' \
            as decimal separator whatever the locale (12.99); it is kept exactly. Quote the \
            color: '#' starts a comment in the shell. A book of the same title and authors as \
            one already there is refused unless --allow-duplicate. Prints the new book's \
            line: its ID, title, author, date and price.
            """,
        options: [title, author] + EditCommand.fields + [allowDuplicate])
}

/// `books show <id>`.
enum ShowCommand {
    static let id = Argument<String>("id", help: BookIDHelp.text, validate: ValueFormats.bookID)

    static let spec = CommandSpec(name: "show", abstract: "Show one book.", arguments: [id])
}

/// `books delete [<id> ...] [--where <predicate>] [--yes]`.
enum DeleteCommand {
    static let ids = Argument<[String]>(
        repeating: "id", help: BookIDHelp.text, isRequired: false, validate: ValueFormats.bookID)
    /// `--where <predicate>`: every book the predicate matches.
    static let predicate = Option<String>(
        "where", valueName: "predicate", help: "Delete every book matching PREDICATE, such as \"price < 15\".",
        validate: ValueFormats.nonBlank)
    /// `-y, --yes`: no confirmation.
    static let yes = Flag("yes", shortName: "y", help: "Delete without asking.")

    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete books.",
        discussion: """
            Deletes the books named by their IDs, and those --where matches, in one save. On \
            a terminal it lists them and asks first; elsewhere (a script, a pipe) it needs \
            --yes, and without it deletes nothing.
            """,
        arguments: [ids],
        options: [predicate, yes])
}

/// `books edit <id> [--title] [--author] [--date] [--price] [--color] [--isbn] [--tag]
/// [--rating] [--status] [--notes]`: the values are kept as typed, and the catalogue checks them (65).
enum EditCommand {
    static let id = Argument<String>("id", help: BookIDHelp.text, validate: ValueFormats.bookID)
    static let title = Option<String>("title", valueName: "title", help: "The new title.")
    static let author = Option<[String]>(
        repeating: "author", valueName: "author",
        help: "An author's name; repeat for each author, first author first (replaces the authors).")
    static let date = Option<String>(
        "date", valueName: "date",
        help: "The publication date: yyyy-mm-dd, or yyyy-mm or yyyy when only that is known ('' for unknown).")
    static let price = Option<String>("price", valueName: "price", help: "The price, such as 12.99 ('' for unknown).")
    static let color = Option<String>("color", valueName: "#rrggbb", help: "The cover color ('' for none).")
    static let isbn = Option<String>(
        "isbn", valueName: "isbn", help: "An ISBN-10 or ISBN-13 with a valid check digit ('' for none).")
    static let rating = Option<String>("rating", valueName: "0-5", help: "Your rating, 0 to 5 ('' for none).")
    static let status = Option<String>(
        "status", valueName: "status", help: "to-read, reading or read ('' for none).")
    static let notes = Option<String>("notes", valueName: "text", help: "Your notes ('' for none).")
    static let tag = Option<[String]>(
        repeating: "tag", valueName: "+tag|-tag", help: "Add (+name) or remove (-name) a tag; repeatable.",
        takesDashedValues: true)
    static let series = Option<String>("series", valueName: "name", help: "The series ('' for none).")
    static let seriesNumber = Option<String>(
        "series-number", valueName: "number", help: "The number in the series, such as 1 or 2.5 ('' for none).")
    static let publisher = Option<String>("publisher", valueName: "name", help: "The publisher ('' for none).")
    static let pages = Option<String>("pages", valueName: "n", help: "The number of pages ('' for none).")
    static let format = Option<String>(
        "format", valueName: "binding", help: "The binding, such as Paperback or Kindle Edition ('' for none).")
    static let dateRead = Option<String>("read", valueName: "yyyy-mm-dd", help: "The day you last read it ('' for none).")
    static let readCount = Option<String>(
        "read-count", valueName: "n", help: "How many times you have read it ('' for none).")
    static let review = Option<String>("review", valueName: "text", help: "Your review ('' for none).")

    /// The options of every field but the title and authors, which `books add` takes too.
    static let fields: [any OptionDeclaration] = [
        date, price, color, isbn, tag, rating, status, notes, series, seriesNumber, publisher, pages, format,
        dateRead, readCount, review,
    ]

    static let spec = CommandSpec(
        name: "edit",
        abstract: "Change a book's fields.",
        discussion: """
            Changes only the fields given, in one save. If another process saved the same \
            book meanwhile, nothing is saved and the command says so; run it again.
            """,
        arguments: [id],
        options: [title, author] + fields)
}

/// The help of every argument that names a book.
enum BookIDHelp {
    static let text = "The book's ID as listings show it, its UUID, or any unique prefix of at least 4 digits."
}

/// `books check`.
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Check the catalogue file for damage.",
        discussion: """
            Runs SQLite's integrity check and checks the catalogue against its model: the \
            search index, key counters, links between books and authors, and files beside the \
            store. Prints one line per problem, or that the catalogue is healthy; exits 0 when \
            it is, 1 when it is damaged. Reads only; never creates the catalogue.
            """)
}
