import BookCatalog
import CommandLineSupport
import Foundation

/// `books import <file>`.
enum ImportCommand {
    /// The file to read, or `-` for standard input.
    static let file = Argument<String>(
        "file", help: "A JSON or CSV file of books, or a Goodreads export (- for standard input).",
        isPath: true, validate: ValueFormats.storePath)

    static let spec = CommandSpec(
        name: "import",
        abstract: "Add or update books from a JSON or CSV file, or a Goodreads export.",
        discussion: """
            Reads what books export writes: a JSON array of objects, or CSV whose header row \
            names the fields (uuid, title, author, publishDate, datePrecision, price, color, \
            isbn, language, dateAdded, rating, status, tags, notes; title, author and \
            publishDate are required). The CSV that Goodreads exports is recognised by its \
            header: its shelves become the status and tags, My Rating the rating (0 is \
            unrated), the publication year the date. A book the catalogue already has (the \
            same UUID, else the same ISBN) is updated in the fields the file gives, not added \
            again. The whole file is checked first and saved at once: a bad value anywhere is \
            refused naming its row and field, and nothing is imported.
            """,
        arguments: [file])
}

/// `books export [--format csv|json] [-o <file>]`.
enum ExportCommand {
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
}
