#if PostgreSQL
import Foundation
import PersistenceModel

/// Encodes attribute values as statement parameters and decodes column text back, exactly.
///
/// Dates are `double precision` seconds since 1970, not `timestamptz`: a `Date` is a
/// `Double`, and `timestamptz` keeps microseconds, so a date would not read back equal to
/// the one saved (and optimistic locking compares what it saved). `to_timestamp("when")`
/// shows one in `psql`.
///
/// PostgreSQL's `text` cannot hold U+0000, which a Swift string can: a string holding
/// U+0000 or U+0001 is stored with U+0001 as an escape (`\u{1}0` for U+0000, `\u{1}1` for
/// U+0001); every other string is stored as it is. The escape keeps equality and code-point
/// order, so the server compares and sorts stored text as memory compares the strings; the
/// predicate compiler matches substrings and LIKE patterns only at the strings' character
/// boundaries (see `PGRelationalDialect`), so the escape never shows.
package enum PGRowCodec {
    /// The parameter that stores `value` in a column of `attribute`.
    package static func encode(_ value: AttributeValue, for attribute: AttributeDescription?, entity: String) throws -> PGValue {
        switch value {
        case .null: return .null
        case .integer(let v):
            if attribute?.type == .boolean { return .bool(v != 0) }
            if let type = attribute?.type, type == .double || type == .float || type == .date { return .double(Double(v)) }
            return .integer(v)
        case .double(let v):
            if let type = attribute?.type, type == .integer16 || type == .integer32 || type == .integer64 {
                return .integer(Int64(exactly: v.rounded()) ?? 0)
            }
            return .double(v)
        case .decimal(let v): return .numeric(DecimalText.format(v))
        case .bool(let v):
            if let type = attribute?.type, type != .boolean { return .integer(v ? 1 : 0) }
            return .bool(v)
        case .string(let v): return .text(escape(v))
        case .date(let v): return .double(v.timeIntervalSince1970)
        case .uuid(let v): return .uuid(v)
        case .url(let v): return .text(escape(v.absoluteString))
        case .data(let v): return .bytes(v)
        case .transformable(let v):
            guard let attribute else { return .null }
            return .bytes(try TransformableCodec.encode(v, attribute: attribute, entity: entity))
        }
    }

    /// Decodes a column's text (libpq's text format) as `attribute`'s type.
    ///
    /// - Throws: `PostgreSQLStoreError.corruptValue` when the text is not of the type.
    package static func decode(_ text: String?, for attribute: AttributeDescription, entity: String) throws -> AttributeValue {
        guard let text else { return .null }
        func corrupt() -> PostgreSQLStoreError {
            .corruptValue(entity: entity, attribute: attribute.name)
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            if let v = Int64(text) { return .integer(v) }
        case .boolean:
            return .bool(text == "t" || text == "true")
        case .double, .float:
            if let v = parseDouble(text) { return .double(v) }
        case .decimal:
            if let v = try? DecimalText.parse(text) { return .decimal(v) }
        case .date:
            if let v = parseDouble(text) { return .date(Date(timeIntervalSince1970: v)) }
        case .string:
            return .string(unescape(text))
        case .uuid:
            if let v = UUID(uuidString: text) { return .uuid(v) }
        case .uri:
            if let v = URL(string: unescape(text)) { return .url(v) }
        case .binaryData:
            if let v = parseBytea(text) { return .data(v) }
        case .transformable:
            if let v = parseBytea(text) {
                return .transformable(try TransformableCodec.decode(v, attribute: attribute, entity: entity))
            }
        case .objectID, .undefined:
            break
        }
        throw corrupt()
    }

    static func parseDouble(_ text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return Double(text)
        }
    }

    /// `bytea` in the hex output format: `\x0a1b…`.
    static func parseBytea(_ text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var data = Data(capacity: (utf8.count - 2) / 2)
        var i = 2
        while i < utf8.count {
            guard let high = nibble(utf8[i]), let low = nibble(utf8[i + 1]) else { return nil }
            data.append(high << 4 | low)
            i += 2
        }
        return data
    }

    /// The text stored for a string (see the type's note on U+0000).
    package static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value <= 1 }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0: out.append("\u{1}"); out.append("0")
            case 1: out.append("\u{1}"); out.append("1")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// The string a stored text stands for.
    package static func unescape(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{1}") else { return text }
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                out.append(scalar == "0" ? "\u{0}" : scalar == "1" ? "\u{1}" : scalar)
                escaping = false
            } else if scalar == "\u{1}" {
                escaping = true
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
#endif
