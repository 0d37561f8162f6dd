import Foundation
import Persistence

/// How calibre writes values, read into the text a ``BookRecord`` checks: shared by
/// ``CalibreJSON`` (`calibredb list --for-machine`) and ``CalibreCSV`` (`calibredb
/// catalog books.csv`), which write the same fields in two shapes.
///
/// calibre's own code is the reference (`src/calibre/db/cli/cmd_list.py`,
/// `src/calibre/library/catalogs/csv_xml.py`, `calibre.ebooks.metadata.authors_to_string`,
/// `calibre.utils.date.is_date_undefined`).
enum CalibreValues {
    /// The authors of calibre's " & "-joined text, an `&` inside a name written `&&`
    /// ("Simon && Garfunkel & Paul Simon" is "Simon & Garfunkel" and "Paul Simon"); a name
    /// given twice is kept once.
    static func authors(_ text: String) -> [String] {
        let escaped = text.replacingOccurrences(of: "&&", with: "\u{FFFF}")
        var names: [String] = []
        for part in escaped.split(separator: "&", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{FFFF}", with: "&")
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The day of calibre's publication timestamp (`2008-09-18T12:00:00+00:00`, in the time
    /// zone it is written in, as calibre shows it), as `YYYY-MM-DD`; empty for none:
    /// blank, `None` (what `--for-machine` writes for no date), or calibre's "undefined"
    /// date, a day before 0101-01-01 or that day itself (calibre's `UNDEFINED_DATE`, year
    /// 101; the day before it when written in a time zone west of UTC).
    ///
    /// - Throws: `CatalogInputError` for text that is not an ISO 8601 time.
    static func publicationDay(_ text: String, field: String) throws -> String {
        guard let day = try self.day(text, field: field) else { return "" }
        if day < "0101-01-02" { return "" }
        return day
    }

    /// The instant of calibre's timestamp (`2019-03-10T19:38:03.123456+00:00`), to the whole
    /// second, as ISO 8601 text; empty for blank or `None`.
    ///
    /// - Throws: `CatalogInputError` for text that is not an ISO 8601 time.
    static func instant(_ text: String, field: String) throws -> String {
        guard try day(text, field: field) != nil else { return "" }
        // Python writes microseconds only when there are some; the catalogue keeps seconds.
        return text.replacingOccurrences(of: "\\.[0-9]+", with: "", options: .regularExpression)
    }

    /// The `YYYY-MM-DD` an ISO 8601 time is written on, or nil for blank or `None`.
    ///
    /// - Throws: `CatalogInputError` for text that is not an ISO 8601 time.
    static func day(_ text: String, field: String) throws -> String? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text == "None" { return nil }
        do { _ = try DateText.parseISO8601(text) } catch {
            throw CatalogInputError(
                field: field, value: text, reason: "expected an ISO 8601 time such as 2008-09-18T12:00:00+00:00 (\(error))")
        }
        return String(text.prefix(10))
    }

    /// The catalogue's rating (0 to 5 stars as text; empty for unrated) of calibre's:
    /// `tenths` is calibre's stored number, 0 to 10 (two a star; an odd number is a half
    /// star), as JSON gives it, or stars, 0 to 5 in halves, as the CSV catalogue gives it
    /// (`%.2g` of half the stored number: `3.5`). The catalogue rates in whole stars: a half
    /// star rounds up (3½ stars is 4), so that a rated book stays rated (½ is 1). 0 is
    /// calibre's "no rating".
    ///
    /// - Throws: `CatalogInputError` for a number out of range or not a whole number of
    ///   half stars.
    static func rating(_ text: String, field: String, scale: RatingScale) throws -> String {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return "" }
        let halves: Int?
        switch scale {
        case .halfStars:
            let plain = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && text.first != "."
            halves = plain ? Double(text).flatMap { ($0 * 2).rounded() == $0 * 2 && $0 <= 1_000 ? Int($0 * 2) : nil } : nil
        case .tenths:
            halves = Double(text).flatMap { $0 == $0.rounded() && abs($0) <= 1_000 ? Int($0) : nil }
        }
        guard let halves, (0...10).contains(halves) else {
            throw CatalogInputError(
                field: field, value: text,
                reason: scale == .tenths
                    ? "expected calibre's rating, a whole number from 0 to 10 (two a star)"
                    : "expected a rating from 0 to 5 stars in half stars, such as 3.5")
        }
        return halves == 0 ? "" : String((halves + 1) / 2)
    }

    /// How a rating is written.
    enum RatingScale: Equatable {
        /// calibre's stored number, 0 to 10.
        case tenths
        /// Stars, 0 to 5 in steps of 0.5.
        case halfStars
    }

    /// The BCP 47 tag of calibre's first language, an ISO 639-2 code (`eng`, `fra`), or a
    /// two-letter ISO 639-1 code as it is; empty for none, `und`, `zxx` or `mul`.
    ///
    /// - Throws: `CatalogInputError` for a code that is not two or three letters.
    static func language(_ codes: [String], field: String) throws -> String {
        guard let first = codes.lazy.map({ $0.trimmingCharacters(in: .whitespaces) }).first(where: { !$0.isEmpty }) else {
            return ""
        }
        if first.lowercased() == "und" || first.lowercased() == "zxx" || first.lowercased() == "mul" { return "" }
        // calibre writes ISO 639-2; a two-letter code (an edited export) is already BCP 47's.
        if first.count == 2, first.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) {
            return first.lowercased()
        }
        guard let tag = LanguageCodes.tag(forCode: first) else {
            throw CatalogInputError(field: field, value: first, reason: "expected an ISO 639-2 language code such as eng or fra")
        }
        return tag
    }

    /// The format of a book's files: their extensions in upper case (`EPUB, PDF`), from
    /// paths (`…/Title - Author.epub`, as `--for-machine` writes them) or bare extensions
    /// (`epub`, as the CSV catalogue writes them).
    static func formats(_ paths: [String]) -> String {
        var names: [String] = []
        for path in paths {
            let trimmed = path.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            let name = (trimmed.split(separator: "/").last.map(String.init) ?? trimmed)
            let ext = name.contains(".") ? String(name.split(separator: ".").last ?? "") : name
            let upper = ext.uppercased()
            if !upper.isEmpty, !names.contains(upper) { names.append(upper) }
        }
        return names.joined(separator: ", ")
    }

    /// A description as text: HTML (calibre's comments are HTML) without its tags, its
    /// paragraphs as lines separated by a blank line; other text as it is.
    static func commentsText(_ text: String) -> String {
        HTMLText.looksLikeHTML(text) ? HTMLText.plainText(text) : text
    }

    /// The field of a custom column's name (`#pages` in CSV, `*pages` in JSON), for the
    /// columns that plugins conventionally make: pages (Count Pages) and the day read.
    static func customField(_ name: String) -> BookField? {
        guard let first = name.first, first == "#" || first == "*" else { return nil }
        switch name.dropFirst().lowercased() {
        case "pages", "page_count", "pagecount": return .pages
        case "date_read", "dateread", "read_date", "last_read": return .dateRead
        default: return nil
        }
    }

    /// The UUID of a row that has none: a version 8 UUID of its calibre book ID, or its
    /// title and authors.
    static func uuid(id: String, title: String, authors: String) -> UUID {
        GoodreadsCSV.uuid(forText: id.isEmpty ? "calibre title+authors\u{0}\(title)\u{0}\(authors)" : "calibre id\u{0}\(id)")
    }
}
