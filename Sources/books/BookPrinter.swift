import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// Prints books as text (locale-aware, a color swatch on terminals) or as JSON.
///
/// Text goes through one formatter made per run (formatters are slow to make). Listings
/// stream: a million books print with memory for one month's books at a time.
///
/// Titles and author names are data that whoever wrote the store chose: in text output they
/// pass through `QuotedText.forDisplay`, so a control character is shown escaped (a title
/// with an ESC as `"Evil\u{1B}[2J"`) and can neither drive the terminal nor forge a line.
/// JSON escapes them as JSON does. Every write goes through `output`, so a failed write
/// throws `OutputWriteError` instead of passing unseen.
struct BookPrinter {
    let formatter: CatalogFormatter
    let colors: Bool
    let output: OutputWriter

    init(environment: [String: String], output: OutputWriter = OutputWriter()) {
        formatter = CatalogFormatter(environment: UserEnvironment(environment: environment))
        colors = Terminal.colorEnabled(for: output.fileDescriptor, environment: environment)
        self.output = output
    }

    /// `books list`, flat or by month, as text, CSV or JSON, each book's fields as
    /// `--fields` chose (text without `--fields` is today's line). Returns how many books
    /// it printed, so that the caller can say on standard error that none matched.
    @discardableResult
    func list(_ catalog: Catalog, predicate: FetchPredicate?, options: ListOptions) throws -> Int {
        try list(catalog, predicate: predicate, options: options, forEachBook: nil)
    }

    /// Prints the books `forEachBook` hands over as `options` asks (text, CSV or JSON, its
    /// fields; by month unless `forEachBook` is given); returns how many it printed.
    @discardableResult
    func list(
        _ catalog: Catalog, predicate: FetchPredicate? = nil, options: ListOptions,
        forEachBook: (((Book) throws -> Void) throws -> Void)?
    ) throws -> Int {
        var authors: [ObjectID: String] = [:]
        let fields = options.fields ?? (options.format == .csv ? BookField.csvDefault : nil)
        let needsIDs = options.format == .text || fields?.contains(.id) == true
        let ids = needsIDs ? try catalog.shortIDs() : ShortIDs()
        var output = OutputBuffer(writer: self.output)
        var printed = 0
        func book(_ book: Book, indent: String, first: Bool) {
            switch options.format {
            case .text:
                let text = fields.map { self.fieldsLine(book, $0, catalog, ids, &authors) } ?? line(book, catalog, ids, &authors)
                output.write(indent + text + "\n")
            case .csv:
                output.write(CSVWriter.record((fields ?? []).map { csvValue(book, $0, catalog, ids, &authors) }))
            case .json:
                let object = fields.map { jsonObject(book, $0, catalog, ids, &authors) } ?? json(book, catalog, &authors)
                output.write((first ? "\n" : ",\n") + indent + object)
            }
            printed += 1
        }
        if options.format == .csv { output.write(CSVWriter.record((fields ?? []).map(\.key))) }
        if options.format == .json { output.write("[") }
        var first = true
        if options.byMonth, forEachBook == nil {
            try catalog.forEachMonth(matching: predicate, order: options.order, limit: options.limit) { section in
                let title = section.isUnknownDate
                    ? Self.unknownDateHeading : formatter.monthHeading(year: section.year, month: section.month)
                switch options.format {
                case .json:
                    output.write(first ? "\n" : ",\n")
                    output.write("{\"monthID\": \(section.monthID), \"title\": \(JSON.string(title)), \"count\": \(section.bookCount), \"books\": [")
                    for (i, item) in section.books.enumerated() { book(item, indent: "  ", first: i == 0) }
                    output.write("\n]}")
                case .text:
                    if !first { output.write("\n") }
                    let count = section.books.count == section.bookCount
                        ? "\(section.bookCount)" : "\(section.books.count) of \(section.bookCount)"
                    output.write(Terminal.styled("\(title) (\(count))", Terminal.ANSI.bold, enabled: colors) + "\n")
                    for item in section.books { book(item, indent: "  ", first: false) }
                case .csv:
                    for item in section.books { book(item, indent: "", first: false) }
                }
                first = false
                try output.flushIfLarge()
            }
            if options.format == .json { output.write(first ? "]\n" : "\n]\n") }
        } else {
            let each = forEachBook ?? { body in
                try catalog.forEachBook(matching: predicate, order: options.order, limit: options.limit, body)
            }
            try each { item in
                book(item, indent: "", first: first)
                first = false
                try output.flushIfLarge()
            }
            if options.format == .json { output.write(first ? "]\n" : "\n]\n") }
        }
        try output.flush()
        return printed
    }

    /// `books search`: books in rank order as the catalogue finds them (streamed, as `list`
    /// is). Returns how many it printed, and whether more books match than `limit` (nil: no
    /// limit), which reading one book past it tells without counting them all.
    func search(_ catalog: Catalog, query: String, limit: Int?, json: Bool) throws -> (printed: Int, moreMatch: Bool) {
        var authors: [ObjectID: String] = [:]
        var output = OutputBuffer(writer: self.output)
        var count = 0
        var moreMatch = false
        let ids = json ? ShortIDs() : try catalog.shortIDs()
        if json { output.write("[") }
        try catalog.forEachSearchResult(query, limit: limit.map { $0 < Int.max ? $0 + 1 : $0 }) { book in
            if let limit, count == limit {
                moreMatch = true
                return
            }
            if json {
                output.write((count == 0 ? "\n" : ",\n") + self.json(book, catalog, &authors))
            } else {
                output.write(line(book, catalog, ids, &authors) + "\n")
            }
            count += 1
            try output.flushIfLarge()
        }
        if json {
            output.write(count == 0 ? "]\n" : "\n]\n")
        }
        try output.flush()
        return (count, moreMatch)
    }

    /// What `books add` prints: the new book's listing line, so the reader sees its ID, title
    /// and what was understood of the date and price (`Added 72E1DE3E  The Cyberiad — …`).
    func added(_ book: Book, catalog: Catalog) throws {
        var authors: [ObjectID: String] = [:]
        try output.write("Added " + line(book, catalog, try catalog.shortIDs(), &authors) + "\n")
    }

    /// `books show`: one book, a field a line.
    func show(_ book: Book, catalog: Catalog) throws {
        var fields: [(String, String)] = [
            ("Title", QuotedText.forDisplay(book.title)),
            (book.authors.count > 1 ? "Authors" : "Author", book.byline.map(QuotedText.forDisplay) ?? "—"),
            ("Published", publication(book)),
            ("Price", book.price.map(formatter.price) ?? "—"),
            ("Color", book.color.map { colors ? "\(swatch($0)) \($0.hex)" : $0.hex } ?? "—"),
            ("ID", try catalog.shortIDs().shortID(of: book.uuid)),
            ("UUID", book.uuid.uuidString),
        ]
        // Version 2's and 3's fields, when the book has them.
        let details: [(String, String?)] = [
            ("Series", seriesText(book)), ("Publisher", book.publisher), ("Pages", book.pages.map { "\($0)" }),
            ("Format", book.format), ("ISBN", book.isbn), ("Language", book.language),
            ("Rating", book.rating.map { "\($0)/5" }), ("Status", book.status),
            ("Read", book.dateRead.map { formatter.day($0) }), ("Reads", book.readCount.map { "\($0)" }),
            ("Notes", book.notes), ("Review", book.review),
            ("Tags", book.tags.isEmpty ? nil : book.tagNames.joined(separator: ", ")),
        ]
        for (name, value) in details { if let value { fields.append((name, QuotedText.forDisplay(value))) } }
        var text = ""
        for (name, value) in fields {
            text += "\(name + ":")".padding(toLength: 11, withPad: " ", startingAt: 0) + value + "\n"
        }
        try output.write(text)
    }

    // MARK: - Rows

    /// A book on one line: its short ID, then title and author, date and price
    /// (`A9EF420F  Solaris — Stanisław Lem · 1961 · 21.98`).
    private func line(_ book: Book, _ catalog: Catalog, _ ids: ShortIDs, _ authors: inout [ObjectID: String]) -> String {
        var parts = [ids.shortID(of: book.uuid) + "  " + QuotedText.forDisplay(book.title)]
        if let byline = book.byline {
            parts[0] += " — " + QuotedText.forDisplay(byline)
        }
        parts.append(publication(book))
        parts.append(book.price.map(formatter.price) ?? "—")
        let text = parts.joined(separator: " · ")
        guard colors, let color = book.color else { return text }
        return swatch(color) + " " + text
    }

    /// The publication date as far as it is known, or `—`.
    private func publication(_ book: Book) -> String {
        book.publishDate.map { formatter.day($0, precision: DatePrecision(storedValue: book.datePrecision)) } ?? "—"
    }

    /// The heading of the books whose publication date is unknown, after every month.
    static let unknownDateHeading = "Date unknown"

    func swatch(_ color: Color) -> String {
        Terminal.swatch(red: color.red, green: color.green, blue: color.blue)
    }

    private func json(_ book: Book, _ catalog: Catalog, _ authors: inout [ObjectID: String]) -> String {
        let names = catalog.authorNames(of: book, cache: &authors)
        let day = book.publishDate.map { JSON.string(DateText.formatDay($0, timeZone: Catalog.calendarTimeZone)) } ?? "null"
        return "{\"uuid\": \(JSON.string(book.uuid.uuidString)), \"title\": \(JSON.string(book.title)), "
            + "\"author\": \(names.first.map(JSON.string) ?? "null"), "
            + "\"authors\": [\(names.map(JSON.string).joined(separator: ", "))], \"publishDate\": \(day), "
            + "\"publishMonthID\": \(book.publishMonthID.map(JSON.string) ?? "null"), "
            + "\"price\": \(book.price.map { JSON.string(Self.priceText($0)) } ?? "null"), "
            + "\"color\": \(book.color.map { JSON.string($0.hex) } ?? "null")}"
    }
}

extension BookPrinter {
    /// A price as exact plain text with at least two fractional digits: "39.60", "0.00",
    /// "12.345" (never through `Double`, never rounded).
    static func priceText(_ price: Decimal) -> String { BookRecord.priceText(price) }
}

/// JSON text for values, written by hand so keys keep their documented order and large
/// listings stream.
enum JSON {
    /// A JSON string literal, escaped.
    static func string(_ text: String) -> String { QuotedText.doubleQuoted(text) }
}

/// Collects output and writes it in large chunks.
struct OutputBuffer {
    let writer: OutputWriter
    private var text = ""

    init(writer: OutputWriter) { self.writer = writer }

    mutating func write(_ part: String) { text += part }

    /// Writes what was collected once it passes 64 KiB.
    mutating func flushIfLarge() throws(OutputWriteError) {
        if text.utf8.count > 1 << 16 { try flush() }
    }

    /// Writes what was collected.
    mutating func flush() throws(OutputWriteError) {
        defer { text = "" }
        try writer.write(text)
    }
}
