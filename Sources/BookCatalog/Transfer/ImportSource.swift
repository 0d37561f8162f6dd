import Foundation

/// Where the books of an import come from, as far as what `books import` remembers of it:
/// the program whose export the file is.
///
/// A reader has one library in each program, so one source a program, whatever the file's
/// form: calibre's JSON and CSV are the same library, and so are LibraryThing's tab-delimited
/// and CSV exports; the catalogue's own JSON and CSV (`books export` of this or another
/// catalogue) are the source `books`. The catalogue keeps, for each source and each book an
/// import of it set, the values that import gave (``ImportedFieldValues``), so that the next
/// import of the same source can tell what the file changed from what the reader changed.
public enum ImportSource: String, Sendable, CaseIterable {
    /// Goodreads' CSV export.
    case goodreads = "Goodreads"
    /// calibre's JSON or CSV export.
    case calibre
    /// LibraryThing's tab-delimited or CSV export.
    case libraryThing = "LibraryThing"
    /// The catalogue's own JSON or CSV export.
    case books

    /// The source of a file of the given format.
    public init(format: ImportFile.Format) {
        switch format {
        case .goodreads: self = .goodreads
        case .calibreJSON, .calibreCSV: self = .calibre
        case .libraryThingTSV, .libraryThingCSV: self = .libraryThing
        case .json, .csv: self = .books
        }
    }
}
