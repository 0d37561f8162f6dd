import BookCatalog
import CommandLineSupport
import Foundation

/// `books stats [--top <n>] [--ascii] [--json]`.
struct StatsCommand: BooksCommand, Equatable {
    /// What to chart, and how.
    var options: StatsOptions

    /// `--top <n>`: how many authors and series to list.
    static let top = Option<Int>(
        "top", range: 1...1_000,
        help: "List the N authors and series with the most books (default \(Catalog.defaultStatsTopCount)).")
    /// `--ascii`: draw the bars with plain ASCII.
    static let ascii = Flag("ascii", help: "Draw the bars with # instead of Unicode blocks.")
    /// `--json`: print the tables as one JSON object.
    static let json = Flag("json", help: "Print every table as one JSON object instead of charts.")

    static let spec = CommandSpec(
        name: "stats",
        abstract: "Chart the catalogue: books read per year, by decade, status, rating, author and series.",
        discussion: """
            Text bar charts, one per table: books read per year and pages read per year, books \
            per publication decade, by status, by rating, and the authors and series with \
            the most books. A book counts as read in the year of its date read (--read), \
            once, whatever its read count; a book marked read without a date read counts \
            under its status only. Pages read in a year are the sum of the pages of the books \
            read that year (a book without pages adds none). Decades are those of the \
            publication date; books without one count as unknown. Years and decades without \
            books are left out. Statuses are to-read, reading, read and none; ratings 5/5 \
            to 1/5 and unrated (0/5 only when some book has it). A book with several authors \
            counts for each; ties in the top lists go by name. Each bar is scaled to the \
            largest count of its chart and to the width of the terminal (COLUMNS, else the \
            terminal's own width, else 80 columns); counts are plain digits. The bars are \
            Unicode blocks when the locale (LC_ALL, LC_CTYPE, LANG) is UTF-8, else, or with \
            --ascii, # signs. --json prints one object with every table, keys in a fixed \
            order (decade, rating and status null for unknown, unrated and none), for \
            scripts. Like list, a first use creates the catalogue with the sample books; an \
            empty catalogue prints "The catalogue has no books." on standard error (and \
            --json its zero counts). Reads only; exit status 0.
            """,
        options: [top, ascii, json])

    static let examples: [CommandExample] = [
        CommandExample("books stats", "Bar charts: books read per year, by decade, status, rating, author and series."),
        CommandExample("books stats --json | jq '.booksReadPerYear'", "The same tables as JSON, for scripts."),
    ]
}

extension StatsCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        self.init(
            options: StatsOptions(
                top: parsed[StatsCommand.top] ?? Catalog.defaultStatsTopCount, ascii: parsed[StatsCommand.ascii],
                json: parsed[StatsCommand.json]))
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        try runner.stats(options)
        return .success
    }
}

/// The options of `books stats`.
struct StatsOptions: Equatable, Sendable {
    /// `--top N`: how many authors and series to list.
    var top = Catalog.defaultStatsTopCount
    /// `--ascii`: plain ASCII bars, whatever the locale.
    var ascii = false
    /// `--json`: one JSON object instead of charts.
    var json = false
}

extension CommandRunner {
    /// `books stats`: opens the catalogue as `list` does (a new one is seeded with the
    /// sample books), counts, and prints the charts or the JSON object.
    fileprivate func stats(_ options: StatsOptions) throws {
        let catalog = try openSeededCatalog()
        let stats = try catalog.stats(top: options.top)
        if options.json {
            try output.write(StatsReport.json(stats))
            return
        }
        guard stats.bookCount > 0 else {
            Terminal.write("The catalogue has no books.\n", to: STDERR_FILENO)
            return
        }
        let style = BarChart.Style(
            width: BarChart.width(environment: environment, terminalColumns: Terminal.columns(output.fileDescriptor)),
            unicode: !options.ascii && BarChart.localeIsUTF8(environment))
        try output.write(StatsReport.text(stats, style: style))
    }
}
