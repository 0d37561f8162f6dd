import Foundation
import Persistence

/// The formats `books export` writes.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// A JSON array of objects, one book a line (``BookRecord/jsonText``).
    case json
    /// The catalogue's CSV (``CatalogCSV``): a header row, then one book a row.
    case csv
}

extension Catalog {
    /// Writes every book, every field, in `format`, handing the text to `write` in pieces
    /// of about 64 KiB: what `books import` reads back into the same catalogue.
    ///
    /// Books come newest first, then by title, then by UUID, so that exporting the same
    /// catalogue twice writes the same bytes, and so does exporting a catalogue that
    /// imported an export. Memory holds one piece at a time.
    ///
    /// - Returns: the number of books written.
    /// - Throws: what `write` throws; the store's errors.
    @discardableResult
    public func export(format: ExportFormat, write: (String) throws -> Void) throws -> Int {
        var text = format == .json ? "[" : CatalogCSV.header
        var count = 0
        var authors: [ObjectID: String] = [:]
        let tags = try tagNamesByBook()
        let order = Self.listingOrder + [SortKey("uuid")]
        try context.forEach(FetchRequest(entityName: "Book", sortDescriptors: order)) { object in
            guard let book = object as? Book else { return true }
            let record = BookRecord(
                book: book, authors: authorNames(of: book, cache: &authors), tags: tags[book.objectID] ?? [])
            switch format {
            case .json: text += (count == 0 ? "\n" : ",\n") + record.jsonText
            case .csv: text += CatalogCSV.row(record)
            }
            count += 1
            if text.utf8.count >= 1 << 16 {
                try write(text)
                text = ""
            }
            return true
        }
        if format == .json { text += count == 0 ? "]\n" : "\n]\n" }
        try write(text)
        return count
    }

    /// Every book's tags' names, in ``BookInput/tagOrder(_:_:)``, read from the tags' side:
    /// one query a tag, where asking each book would be one query a book.
    private func tagNamesByBook() throws -> [ObjectID: [String]] {
        var names: [ObjectID: [String]] = [:]
        for case let tag as Tag in try context.fetch(FetchRequest(entityName: "Tag")) {
            for id in tag.objectIDs(forRelationshipNamed: "books") { names[id, default: []].append(tag.name) }
        }
        return names.mapValues { $0.sorted(by: BookInput.tagOrder) }
    }
}
