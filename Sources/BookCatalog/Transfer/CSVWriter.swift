import Foundation

/// Writes CSV as RFC 4180 describes it: records end with CRLF, and a field is quoted when it
/// holds a comma, a quote (doubled inside the quotes) or a line break, or begins or ends with
/// a space (which some readers trim).
///
/// A field a spreadsheet would run as a formula (CSV injection: `=HYPERLINK(…)`, `+cmd|…`,
/// `-2+3`, `@SUM(…)`, or one beginning with a tab or a carriage return) is written behind an
/// apostrophe, as OWASP recommends: a spreadsheet shows the text, and runs nothing.
/// ``unneutralised(_:)`` takes the apostrophe off again when the catalogue reads its own CSV,
/// so export → import → export gives the same bytes (see ``neutralised(_:)`` for the rule
/// that keeps it exact for text that begins with an apostrophe of its own).
///
/// What ``CSVReader`` reads back field for field. Used by `books export --format csv` and
/// `books list --format csv`.
package enum CSVWriter {
    /// The end of every record.
    package static let lineEnding = "\r\n"

    /// One record: the fields, neutralised and quoted where needed, and the line ending.
    package static func record(_ fields: [String]) -> String {
        fields.map { field(neutralised($0)) }.joined(separator: ",") + lineEnding
    }

    /// One field, quoted if it needs to be.
    static func field(_ text: String) -> String {
        let needsQuotes =
            text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || text.hasPrefix(" ") || text.hasSuffix(" ")
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The first characters that make a spreadsheet read a cell as a formula.
    static let formulaStarts: Set<UInt8> = [
        UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
    ]

    /// `text` behind an apostrophe when it begins as a formula would — or when it begins with
    /// an apostrophe followed by such a character or another apostrophe, so that reading it
    /// back (``unneutralised(_:)``) is exact: `=1+1` → `'=1+1`, `'=x` → `''=x`, while
    /// `'Salem's Lot` and every other text stay as they are.
    package static func neutralised(_ text: String) -> String {
        needsApostrophe(text) || (text.utf8.first == UInt8(ascii: "'") && isEscaped(text)) ? "'" + text : text
    }

    /// A field of the catalogue's own CSV as it was before ``neutralised(_:)``: one leading
    /// apostrophe taken off when a formula character or another apostrophe follows it.
    package static func unneutralised(_ field: String) -> String {
        isEscaped(field) ? String(field.dropFirst()) : field
    }

    private static func needsApostrophe(_ text: String) -> Bool {
        text.utf8.first.map(formulaStarts.contains) ?? false
    }

    /// Whether `text` is an apostrophe followed by a formula character or an apostrophe.
    private static func isEscaped(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "'"), let second = bytes.next() else { return false }
        return second == UInt8(ascii: "'") || formulaStarts.contains(second)
    }
}
