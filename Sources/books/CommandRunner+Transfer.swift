import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

extension CommandRunner {
    /// `books import FILE|-`: the file is read and checked whole before the catalogue is
    /// opened (a bad one changes nothing; as the first command it leaves the reader's empty
    /// catalogue, see `beginningTheReadersCatalogue`), then saved in one save.
    func importBooks(from path: String, skippingInvalid: Bool, intoNewCatalogue isNew: Bool) throws {
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
        let file = try CatalogImport(data: data, name: name, skippingInvalid: skippingInvalid)
        let catalog = try openCatalog()
        if isNew { try catalog.declineSampleBooks() }
        let result = try catalog.importBooks(file)
        let total = file.entries.count
        var report = "Imported \(total) \(total == 1 ? "book" : "books") (\(file.format.rawValue)): "
            + "\(result.added) added, \(result.updated) updated, \(result.unchanged) unchanged"
        if skippingInvalid { report += ", \(file.invalid.count) skipped" }
        report += "."
        for row in file.invalid { report += "\nSkipped \(row.description)" }
        try afterChange("the import was saved") { try output.write(report + "\n") }
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
