import BookCatalog
import CommandLineSupport
import Foundation

/// `books import <file>`.
enum ImportCommand {
    /// The file to read, or `-` for standard input.
    static let file = Argument<String>(
        "file", help: "A JSON or CSV file of books, or a Goodreads, calibre or LibraryThing export (- for standard input).",
        isPath: true, validate: ValueFormats.storePath)
    /// `--skip-invalid`: import the valid books of a file with invalid ones.
    static let skipInvalid = Flag(
        "skip-invalid", help: "Import the valid books of a file with invalid ones, and name each one skipped.")
    /// `--prefer-file`: in a conflict, take the file's value.
    static let preferFile = Flag(
        "prefer-file",
        help: "Where you and the file both changed a field since the last import of its source, take the file's value.")
    /// `--dry-run`: say what would change, write nothing.
    static let dryRun = Flag(
        "dry-run", help: "Show what the import would add, update and find in conflict, and write nothing.")

    static let spec = CommandSpec(
        name: "import",
        abstract: "Add or update books from a JSON or CSV file, or a Goodreads, calibre or LibraryThing export.",
        discussion: """
            Reads what books export writes: a JSON array of objects, or CSV whose header row \
            names the fields (uuid, title, authors, publishDate, datePrecision, price, color, \
            isbn, language, dateAdded, rating, status, tags, notes, series, seriesNumber, \
            publisher, pages, format, dateRead, readCount, review; title and authors are \
            required, and an earlier release's author column is read as authors). The CSV \
            that Goodreads exports is recognised by its header: its shelves become the \
            status and tags, My Rating the rating (0 is unrated), the publication year the \
            date (blank: unknown), the series at the end of a title the series. calibre's \
            exports (calibredb list --for-machine --fields all, and calibredb catalog's CSV) \
            and LibraryThing's (tab-delimited or CSV) are recognised by their shape too, and \
            keep each book's UUID (calibre's uuid, a hash of LibraryThing's Book Id). A book the \
            catalogue already has (the same UUID, else the same ISBN) is updated in the \
            fields the file gives, not added again. The whole file is checked first and \
            saved at once: a blank optional field is never an error, and a book with a bad \
            value refuses the file, naming every such book (one a line), unless \
            --skip-invalid imports the others.

            Importing a newer export of the same source (Goodreads, calibre, LibraryThing, \
            or books' own export) keeps what you changed in books since: the catalogue keeps \
            the values each import gave, so a field the file did not change keeps yours, a \
            field the file changed and you did not takes the file's, and a field both \
            changed keeps yours and is named (one line a book and field), or takes the \
            file's with --prefer-file. Tags merge: a book gains the file's new tags and \
            never loses one. A book no import of the source gave values to yet (a first \
            import, or one by a release before this kept them) takes the file's, as \
            before. --dry-run shows what would be added, updated and kept, and writes \
            nothing.
            """,
        arguments: [file],
        options: [skipInvalid, preferFile, dryRun])
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
