import Foundation

/// Writes CSV as RFC 4180 describes it: records end with CRLF, and a field is quoted when it
/// holds a comma, a quote (doubled inside the quotes) or a line break, or begins or ends with
/// a space (which some readers trim).
///
/// What ``CSVReader`` reads back field for field.
enum CSVWriter {
    /// The end of every record.
    static let lineEnding = "\r\n"

    /// One record: the fields, quoted where needed, and the line ending.
    static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + lineEnding
    }

    /// One field, quoted if it needs to be.
    static func field(_ text: String) -> String {
        let needsQuotes =
            text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || text.hasPrefix(" ") || text.hasSuffix(" ")
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
