import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

extension CommandRunner {
    /// `books import FILE|-`: the file is read and checked whole before the catalogue is
    /// opened (a bad one changes nothing; as the first command it leaves the reader's empty
    /// catalogue, see `beginningTheReadersCatalogue`), then saved in one save. A field both
    /// the reader and the file changed since the last import of its source is named, a line
    /// a book and field.
    ///
    /// `--dry-run` opens the catalogue only to read it (a missing one is not created: the
    /// import is worked out against an empty catalogue in memory, as it would begin one),
    /// and lists each book the import would add or update.
    func importBooks(_ options: ImportOptions, intoNewCatalogue isNew: Bool) throws {
        let path = options.file
        let name = path == "-" ? "standard input" : path
        let data: Data
        do {
            data = path == "-" ? try InputFile.readStandardInput() : try InputFile.read(path)
        } catch {
            switch error.kind {
            case .tooLarge, .malformed:
                throw CommandFailure(message: "Cannot import \(name): \(error.reason); nothing was imported.", code: .dataError)
            default:
                throw CommandFailure(message: "Cannot import \(name): \(error.reason); nothing was imported.", code: .noInput)
            }
        }
        if path != "-", let store = protectedStores.first, OutputFile.isSameFile(path, asStoreOrItsFiles: store) {
            throw CommandFailure(
                message: "Cannot import \(QuotedText.forMessage(path)): it is the catalogue \(QuotedText.forMessage(store)) itself; "
                    + "nothing was imported.", code: .dataError)
        }
        let file = try ImportFile(data: data, name: name, skippingInvalid: options.skipInvalid)
        let dryRun = options.dryRun
        let catalog = dryRun && !storeExists ? try Catalog(storeURL: nil) : try openCatalog()
        if isNew && !dryRun { try catalog.declineSampleBooks() }
        let result = try catalog.importBooks(file, preferringFile: options.preferFile, dryRun: dryRun)
        let ids = try catalog.shortIDs()
        let total = file.entries.count
        var report = "\(dryRun ? "Would import" : "Imported") \(CountText.books(total)) (\(file.format.rawValue)): "
            + "\(result.added) added, \(result.updated) updated, \(result.unchanged) unchanged"
        if options.skipInvalid { report += ", \(file.invalid.count) skipped" }
        let conflicts = result.conflicts.count
        if conflicts > 0 {
            let verb = options.preferFile ? (dryRun ? "would take" : "took") + " the file's"
                : (dryRun ? "would keep" : "kept") + " yours (--prefer-file takes the file's)"
            report += "; \(conflicts) \(conflicts == 1 ? "conflict" : "conflicts") \(verb)"
        }
        report += dryRun ? ". Nothing was written (--dry-run)." : "."
        for row in file.invalid { report += "\nSkipped \(row.description)" }
        if dryRun {
            for change in result.changes {
                let book = "\(ids.shortID(of: change.uuid))  \(QuotedText.forDisplay(change.title))"
                report += change.isNew
                    ? "\nWould add     \(book)"
                    : "\nWould update  \(book): " + change.fields.map(\.rawValue).joined(separator: ", ")
            }
        }
        for conflict in result.conflicts {
            report += "\n" + Self.conflictLine(conflict, shortID: ids.shortID(of: conflict.uuid), dryRun: dryRun)
        }
        try afterChange(dryRun ? "nothing was written" : "the import was saved") { try output.write(report + "\n") }
    }

    /// `Conflict: A9EF420F "Solaris", rating: kept yours (4); the file changed it from 3 to 5.`
    static func conflictLine(_ conflict: ImportConflict, shortID: String, dryRun: Bool) -> String {
        // In double quotes, escaped when it holds controls (as undo's messages name a book).
        let shown = QuotedText.forDisplay(conflict.title)
        let title = shown.hasPrefix("\"") && shown != conflict.title ? shown : "\"\(conflict.title)\""
        let book = "\(shortID) \(title)"
        let head = "Conflict: \(book), \(conflict.field.rawValue): "
        let field = conflict.field
        let yours = shownValue(conflict.catalogue, field), theirs = shownValue(conflict.file, field)
        let last = shownValue(conflict.lastImported, field)
        if conflict.tookFile {
            return head + "\(dryRun ? "would take" : "took") the file's (\(theirs)); "
                + "yours was \(yours), the last import gave \(last)."
        }
        return head + "\(dryRun ? "would keep" : "kept") yours (\(yours)); the file changed it from \(last) to \(theirs)."
    }

    /// A field's value in a conflict's line: `none` when empty, authors (one a line) joined
    /// by `, `, cut to 60 characters, then with control characters escaped (a note's line
    /// break reads `\n`, in quotes), so that an escape is never cut in two.
    static func shownValue(_ text: String, _ field: BookCatalog.BookField) -> String {
        guard !text.isEmpty else { return "none" }
        let oneLine = field == .authors ? text.replacingOccurrences(of: "\n", with: ", ") : text
        return QuotedText.forDisplay(oneLine.count > 60 ? String(oneLine.prefix(59)) + "…" : oneLine)
    }

    /// `books export [--format F] [-o FILE]`: to standard output, or to a file that is
    /// replaced only once the whole export is written (nothing is left of a failed one,
    /// whatever signal ends it). The file is checked first (`OutputFile`): the catalogue,
    /// its side files, another SQLite database, a device, a FIFO or a read-only file is
    /// refused before the catalogue is opened.
    func export(_ options: ExportOptions) throws {
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

    /// The store files a file this command writes must never be: the catalogue's, when it
    /// is a file.
    var protectedStores: [String] {
        ServerStoreURL.isServer(command.storeURL) ? [] : [command.storeURL.path]
    }
}
