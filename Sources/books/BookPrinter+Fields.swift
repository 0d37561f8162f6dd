import BookCatalog
import Foundation
import Persistence

// The fields `books list --fields` chose, as text for people, CSV and JSON.

extension BookPrinter {
    /// The fields on one line for people, separated as the default line is (` · `); a
    /// missing value is `—`.
    func fieldsLine(
        _ book: Book, _ fields: [BookField], _ catalog: Catalog, _ ids: ShortIDs, _ authors: inout [ObjectID: String]
    ) -> String {
        var parts: [String] = []
        for field in fields {
            let value: String?
            switch field {
            case .id: value = ids.shortID(of: book.uuid)
            case .date:
                value = book.publishDate.map { formatter.day($0, precision: DatePrecision(storedValue: book.datePrecision)) }
            case .price: value = book.price.map(formatter.price)
            case .read: value = book.dateRead.map { formatter.day($0) }
            case .series: value = seriesText(book)
            case .rating: value = book.rating.map { "\($0)/5" }
            case .added: value = book.dateAdded.map { formatter.date($0) }
            default: value = plainValue(book, field, catalog, &authors)
            }
            parts.append(value.map(QuotedText.forDisplay) ?? "—")
        }
        let text = parts.joined(separator: " · ")
        guard colors, fields.contains(.color), let color = book.color else { return text }
        return swatch(color) + " " + text
    }

    /// A field as CSV holds it: the plain value, empty when there is none.
    func csvValue(
        _ book: Book, _ field: BookField, _ catalog: Catalog, _ ids: ShortIDs, _ authors: inout [ObjectID: String]
    ) -> String {
        if field == .id { return ids.shortID(of: book.uuid) }
        return plainValue(book, field, catalog, &authors) ?? ""
    }

    /// The chosen fields as one JSON object, keys in the order given; a missing value is
    /// `null`, a rating a number, tags an array of names.
    func jsonObject(
        _ book: Book, _ fields: [BookField], _ catalog: Catalog, _ ids: ShortIDs, _ authors: inout [ObjectID: String]
    ) -> String {
        var members: [String] = []
        for field in fields {
            let value: String
            switch field {
            case .id: value = JSON.string(ids.shortID(of: book.uuid))
            case .rating: value = book.rating.map { "\($0)" } ?? "null"
            case .pages: value = book.pages.map { "\($0)" } ?? "null"
            case .readCount: value = book.readCount.map { "\($0)" } ?? "null"
            case .tags: value = "[" + tagNames(book).map(JSON.string).joined(separator: ", ") + "]"
            case .authors: value = "[" + catalog.authorNames(of: book, cache: &authors).map(JSON.string).joined(separator: ", ") + "]"
            default: value = plainValue(book, field, catalog, &authors).map(JSON.string) ?? "null"
            }
            members.append("\(JSON.string(field.key)): \(value)")
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A field's value as machine formats write it, whatever the locale: days as
    /// `YYYY-MM-DD`, when a book was added as ISO 8601 in UTC, prices as exact plain
    /// numbers, tags as names separated by `, `; nil when the book has none.
    func plainValue(_ book: Book, _ field: BookField, _ catalog: Catalog, _ authors: inout [ObjectID: String]) -> String? {
        switch field {
        case .id, .uuid: return book.uuid.uuidString
        case .title: return book.title
        case .author: return catalog.authorNames(of: book, cache: &authors).first
        case .authors: return book.byline
        case .date: return book.publishDate.map { DateText.formatDay($0, timeZone: Catalog.calendarTimeZone) }
        case .price: return book.price.map(Self.priceText)
        case .color: return book.color?.hex
        case .isbn: return book.isbn
        case .language: return book.language
        case .rating: return book.rating.map { "\($0)" }
        case .status: return book.status
        case .notes: return book.notes
        case .added: return book.dateAdded.map(DateText.formatISO8601)
        case .tags:
            let names = tagNames(book)
            return names.isEmpty ? nil : names.joined(separator: ", ")
        case .series: return book.series
        case .seriesNumber: return book.seriesNumber.map(DecimalText.format)
        case .publisher: return book.publisher
        case .pages: return book.pages.map { "\($0)" }
        case .format: return book.format
        case .read: return book.dateRead.map { DateText.formatDay($0, timeZone: Catalog.calendarTimeZone) }
        case .readCount: return book.readCount.map { "\($0)" }
        case .review: return book.review
        }
    }

    /// The series as people read it: "Discworld #8", or the series alone.
    func seriesText(_ book: Book) -> String? {
        guard let series = book.series else { return nil }
        return book.seriesNumber.map { "\(series) #\(DecimalText.format($0))" } ?? series
    }

    /// The book's tag names, sorted by their bytes so that every run writes them alike.
    private func tagNames(_ book: Book) -> [String] {
        book.tags.map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
