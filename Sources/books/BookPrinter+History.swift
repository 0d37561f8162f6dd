import BookCatalog
import Foundation
import Persistence

extension BookPrinter {
    /// `books history`: a line per transaction, then a line for each of its first books.
    ///
    /// ```
    /// #3  2026-11-26T10:41:08Z  books edit: updated 1 book
    ///       updated  A9EF420F  Solaris: price, title
    /// ```
    func history(_ entries: [CatalogHistoryEntry], ids: ShortIDs) throws {
        var text = ""
        for entry in entries {
            let whole = Date(timeIntervalSince1970: entry.timestamp.timeIntervalSince1970.rounded(.down))
            var summary: [String] = []
            for (type, verb) in [(PersistentHistoryChangeType.insert, "added"), (.update, "updated"), (.delete, "deleted")] {
                if let count = entry.counts[type] { summary.append("\(verb) \(CountText.books(count))") }
            }
            var command = entry.command.map(QuotedText.forDisplay) ?? "another program"
            if !entry.undid.isEmpty { command += " of " + Catalog.transactionList(entry.undid) }
            let numbers = entry.firstNumber == entry.number ? "#\(entry.number)" : "#\(entry.firstNumber)–\(entry.number)"
            if summary.isEmpty { summary = ["changed no book"] }
            text += "\(numbers)  \(DateText.formatISO8601(whole))  \(command): \(summary.joined(separator: ", "))\n"
            for change in entry.books {
                let verb = change.type == .insert ? "added  " : change.type == .update ? "updated" : "deleted"
                guard let uuid = change.uuid else {
                    text += "    \(verb)  a book no longer in the catalogue\n"
                    continue
                }
                var line = "    \(verb)  \(ids.shortID(of: uuid))  \(QuotedText.forDisplay(change.title ?? ""))"
                let fields = change.properties.filter { !Self.derivedProperties.contains($0) }
                if change.type == .update && !fields.isEmpty { line += ": " + fields.joined(separator: ", ") }
                text += line + "\n"
            }
            let total = entry.counts.values.reduce(0, +)
            if total > entry.books.count { text += "    … and \(CountText.books(total - entry.books.count)) more\n" }
        }
        try output.write(text)
    }

    /// Properties a save writes because others changed: not what the user changed.
    private static let derivedProperties: Set<String> = ["canonicalTitle"]
}
