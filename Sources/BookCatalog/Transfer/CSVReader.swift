import Foundation

/// Reads CSV as RFC 4180 describes it, one record at a time: fields separated by commas,
/// records by CRLF or LF (or a lone CR); a field in double quotes may hold commas, line
/// breaks and doubled quotes (`""` is one `"`).
///
/// Two liberties, both what spreadsheets and Goodreads' export need: a quote inside a field
/// that does not begin with one is kept as text (Goodreads writes ISBNs as `="0306406152"`),
/// and a leading UTF-8 byte order mark is skipped. Empty lines are skipped but counted, so
/// that row numbers are the ones a spreadsheet shows. Every field must be UTF-8.
///
/// Not `Sendable`: a reader is a position in its bytes; use it from one thread.
struct CSVReader {
    /// One record: its row number (the header is row 1) and its fields.
    struct Record {
        /// The row, counting from 1 as a spreadsheet does; a quoted line break does not start
        /// a new row.
        var row: Int
        /// The fields, unquoted.
        var fields: [String]
    }

    private let bytes: [UInt8]
    private var position = 0
    private var row = 0

    /// A reader of `data`.
    init(data: Data) {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        self.bytes = bytes
    }

    /// The next record, or nil after the last.
    ///
    /// - Throws: ``CSVReaderError`` for a quote that never closes, text after a closing
    ///   quote, or a field that is not UTF-8.
    mutating func next() throws(CSVReaderError) -> Record? {
        while position < bytes.count {
            row += 1
            switch bytes[position] {
            case Self.lineFeed:
                position += 1
            case Self.carriageReturn:
                position += 1
                if position < bytes.count, bytes[position] == Self.lineFeed { position += 1 }
            default:
                return Record(row: row, fields: try fields())
            }
        }
        return nil
    }

    // MARK: - Fields

    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// The fields of the record at `position`, leaving `position` after its line break.
    private mutating func fields() throws(CSVReaderError) -> [String] {
        var fields: [String] = []
        while true {
            let column = fields.count + 1
            var field: [UInt8] = []
            if position < bytes.count, bytes[position] == Self.quote {
                position += 1
                while true {
                    guard position < bytes.count else { throw CSVReaderError(row: row, column: column, kind: .unterminatedQuote) }
                    let byte = bytes[position]
                    position += 1
                    if byte != Self.quote {
                        field.append(byte)
                    } else if position < bytes.count, bytes[position] == Self.quote {
                        field.append(Self.quote)
                        position += 1
                    } else {
                        break
                    }
                }
                if position < bytes.count, !isSeparator(bytes[position]) {
                    throw CSVReaderError(row: row, column: column, kind: .textAfterClosingQuote)
                }
            } else {
                while position < bytes.count, !isSeparator(bytes[position]) {
                    field.append(bytes[position])
                    position += 1
                }
            }
            guard let text = String(validating: field, as: UTF8.self) else {
                throw CSVReaderError(row: row, column: column, kind: .notUTF8)
            }
            fields.append(text)
            guard position < bytes.count else { return fields }
            let separator = bytes[position]
            position += 1
            if separator == Self.comma { continue }
            if separator == Self.carriageReturn, position < bytes.count, bytes[position] == Self.lineFeed {
                position += 1
            }
            return fields
        }
    }

    private func isSeparator(_ byte: UInt8) -> Bool {
        byte == Self.comma || byte == Self.lineFeed || byte == Self.carriageReturn
    }
}

/// CSV that cannot be read: where, and what is wrong.
struct CSVReaderError: Error, Sendable, Equatable {
    /// What is wrong.
    enum Kind: Sendable, Equatable {
        /// A quoted field runs to the end of the input.
        case unterminatedQuote
        /// A closing quote is followed by something other than a comma or a line break.
        case textAfterClosingQuote
        /// The field's bytes are not UTF-8.
        case notUTF8
    }

    /// The row (the header is row 1).
    var row: Int
    /// The field's position in its record, from 1.
    var column: Int
    /// What is wrong.
    var kind: Kind

    /// Why, as a phrase: "a quoted field is never closed".
    var reason: String {
        switch kind {
        case .unterminatedQuote: "a quoted field is never closed (the quote that opens it has no closing quote)"
        case .textAfterClosingQuote: "a closing quote must be followed by a comma or a line break (write \"\" for a quote inside a quoted field)"
        case .notUTF8: "the text is not UTF-8"
        }
    }
}
