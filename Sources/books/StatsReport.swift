import BookCatalog
import Foundation
import Persistence

/// `books stats` output: ``CatalogStats`` as bar charts for people, or as one JSON object
/// for scripts.
enum StatsReport {
    /// The charts, each after a blank line, under a first line that counts the books.
    static func text(_ stats: CatalogStats, style: BarChart.Style) -> String {
        typealias Row = BarChart.Row
        let years = stats.readYears
        let charts: [(BarChart, String)] = [
            (BarChart(title: "Books read per year", rows: years.map { Row(label: String($0.year), value: $0.books) }),
             "No book has a date read (books edit ID --read DATE)."),
            (BarChart(
                title: "Pages read per year",
                rows: years.contains { $0.pages > 0 } ? years.map { Row(label: String($0.year), value: $0.pages) } : []),
             years.isEmpty ? "No book has a date read." : "No book read has a page count (books edit ID --pages N)."),
            (BarChart(
                title: "Books per publication decade",
                rows: stats.decades.map { Row(label: $0.decade.map { "\($0)s" } ?? "unknown", value: $0.books) }),
             ""),
            (BarChart(title: "Books by status", rows: stats.statuses.map { Row(label: $0.status ?? "none", value: $0.books) }), ""),
            (BarChart(
                title: "Books by rating",
                rows: stats.ratings.filter { $0.rating != 0 || $0.books > 0 }.map {
                    Row(label: $0.rating.map { "\($0)/5" } ?? "unrated", value: $0.books)
                }),
             ""),
            (BarChart(title: "Top authors", rows: stats.topAuthors.map { Row(label: $0.name, value: $0.books) }),
             "No book has an author."),
            (BarChart(title: "Top series", rows: stats.topSeries.map { Row(label: $0.name, value: $0.books) }),
             "No book is in a series (books edit ID --series NAME)."),
        ]
        return "\(CountText.books(stats.bookCount)) in the catalogue.\n"
            + charts.map { "\n" + $0.0.render(style, note: $0.1) }.joined()
    }

    /// One JSON object with every table, keys in this order, a row per line:
    /// `books`, `booksReadPerYear` (`year`, `books`), `pagesReadPerYear` (`year`, `pages`),
    /// `publicationDecades` (`decade`, null for unknown; `books`), `status` (`status`, null
    /// for none; `books`), `ratings` (`rating` 5 to 0, null for unrated; `books`),
    /// `topAuthors` and `topSeries` (`name`, `books`).
    static func json(_ stats: CatalogStats) -> String {
        func table(_ key: String, _ rows: [[(String, String)]]) -> String {
            let lines = rows.map { row in
                "    {" + row.map { "\(JSON.string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
            }
            return "  \(JSON.string(key)): " + (lines.isEmpty ? "[]" : "[\n" + lines.joined(separator: ",\n") + "\n  ]")
        }
        func number(_ value: Int?) -> String { value.map { String($0) } ?? "null" }
        let tables = [
            "  \"books\": \(stats.bookCount)",
            table("booksReadPerYear", stats.readYears.map { [("year", number($0.year)), ("books", number($0.books))] }),
            table("pagesReadPerYear", stats.readYears.map { [("year", number($0.year)), ("pages", number($0.pages))] }),
            table("publicationDecades", stats.decades.map { [("decade", number($0.decade)), ("books", number($0.books))] }),
            table("status", stats.statuses.map { [("status", $0.status.map(JSON.string) ?? "null"), ("books", number($0.books))] }),
            table("ratings", stats.ratings.map { [("rating", number($0.rating)), ("books", number($0.books))] }),
            table("topAuthors", stats.topAuthors.map { [("name", JSON.string($0.name)), ("books", number($0.books))] }),
            table("topSeries", stats.topSeries.map { [("name", JSON.string($0.name)), ("books", number($0.books))] }),
        ]
        return "{\n" + tables.joined(separator: ",\n") + "\n}\n"
    }
}
