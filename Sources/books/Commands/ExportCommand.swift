import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// `books export [--format csv|json] [-o <file>]`.
struct ExportCommand: BooksCommand, Equatable {
    /// The format, and where to write.
    var options: ExportOptions

    /// `--format csv|json`.
    static let format = Option<String>(
        "format", valueName: "csv|json", choices: ExportFormat.allCases.map(\.rawValue),
        help: "csv or json (default: json, or csv when the output file's name ends in .csv).")
    /// `-o, --output <file>`: a file instead of standard output.
    static let output = Option<String>(
        "output", shortName: "o", valueName: "file",
        help: "Write to FILE (replaced whole, only once the export is complete) instead of standard output.",
        isPath: true, validate: ValueFormats.storePath)

    static let spec = CommandSpec(
        name: "export",
        abstract: "Write every book, every field, as JSON or CSV.",
        discussion: """
            What books import reads back: exporting, importing into an empty catalogue and \
            exporting again gives the same bytes. CSV follows RFC 4180 (quoted fields, CRLF \
            line endings) with a header row; JSON is an array with one object a line.
            """,
        options: [format, output])

    static let examples: [CommandExample] = [
        CommandExample("books export -o books.csv", "Every book, every field, as CSV (the file is replaced only when complete)."),
        CommandExample("books export --format json", "Every book as JSON on standard output."),
    ]
}

extension ExportCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        let output = parsed[ExportCommand.output]
        let format = parsed[ExportCommand.format].flatMap(ExportFormat.init(rawValue:))
            ?? (output?.lowercased().hasSuffix(".csv") == true ? .csv : .json)
        self.init(options: ExportOptions(format: format, output: output))
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        try runner.export(options)
        return .success
    }
}

/// The options of `books export`.
struct ExportOptions: Equatable, Sendable {
    /// `--format`: as given, or from the output file's extension (`.csv`), else JSON.
    var format: ExportFormat
    /// `-o FILE`: where to write; standard output when nil.
    var output: String?
}

extension CommandRunner {
    /// `books export [--format F] [-o FILE]`: to standard output, or to a file that is
    /// replaced only once the whole export is written (nothing is left of a failed one,
    /// whatever signal ends it). The file is checked first (`OutputFile`): the catalogue,
    /// its side files, another SQLite database, a device, a FIFO or a read-only file is
    /// refused before the catalogue is opened.
    fileprivate func export(_ options: ExportOptions) throws {
        let file = try options.output.flatMap { $0 == "-" ? nil : try OutputFile(path: $0, protecting: protectedStores) }
        let catalog = try openSeededCatalog()
        guard let file else {
            var buffer = OutputBuffer(writer: output)
            try catalog.export(format: options.format) { text in
                buffer.write(text)
                try buffer.flushIfLarge()
            }
            try buffer.flush()
            return
        }
        let path = file.path
        let count: Int
        do {
            count = try catalog.export(format: options.format) { try file.write($0) }
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
        try afterChange("the export was written to \(path)") {
            try output.write("Exported \(count) \(count == 1 ? "book" : "books") to \(QuotedText.forDisplay(path)).\n")
        }
    }
}
