import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// SQLite keeps every value in one of five
/// [storage classes](https://sqlite.org/datatype3.html): NULL, INTEGER, REAL, TEXT and BLOB.
/// `SQLiteValue` is that value in Swift, used for statement arguments, query results and the
/// arguments and results of custom SQL functions.
///
/// Literals build values directly: `[1, 2.5, "text", nil]` is a `[SQLiteValue]`.
///
/// - Note: SQLite has no NaN. Binding `.real(.nan)` stores NULL (see
///   `Statement.bind(_:at:)` for `Double`); the store layer decides how to persist `Double.nan`.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A signed 64-bit integer (SQLite's INTEGER storage class).
    case integer(Int64)
    /// An IEEE 754 double (SQLite's REAL storage class).
    case real(Double)
    /// UTF-8 text (SQLite's TEXT storage class). Embedded NUL characters are kept.
    case text(String)
    /// Raw bytes (SQLite's BLOB storage class). An empty blob is not NULL.
    case blob(Data)
}

// MARK: - Conversions into SQLiteValue

extension SQLiteValue {
    /// Wraps a 64-bit integer as `.integer`.
    public init(_ value: Int64) { self = .integer(value) }

    /// Wraps an `Int` as `.integer`.
    public init(_ value: Int) { self = .integer(Int64(value)) }

    /// Wraps a double as `.real`. NaN is kept here but SQLite stores it as NULL when bound.
    public init(_ value: Double) { self = .real(value) }

    /// Wraps a string as `.text`.
    public init(_ value: String) { self = .text(value) }

    /// Wraps bytes as `.blob`.
    public init(_ value: Data) { self = .blob(value) }

    /// Stores a Boolean as SQLite does: `.integer(1)` for `true`, `.integer(0)` for `false`.
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }

    /// Wraps an optional convertible value; `nil` becomes `.null`.
    public init<T>(_ value: T?) where T: SQLiteValueConvertible {
        self = value?.sqliteValue ?? .null
    }
}

/// A Swift type that converts to an ``SQLiteValue`` without loss (NaN aside).
public protocol SQLiteValueConvertible {
    /// The value as SQLite stores it.
    var sqliteValue: SQLiteValue { get }
}

extension Int64: SQLiteValueConvertible {
    /// `.integer(self)`.
    public var sqliteValue: SQLiteValue { .integer(self) }
}

extension Int: SQLiteValueConvertible {
    /// `.integer(Int64(self))`.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Double: SQLiteValueConvertible {
    /// `.real(self)`.
    public var sqliteValue: SQLiteValue { .real(self) }
}

extension String: SQLiteValueConvertible {
    /// `.text(self)`.
    public var sqliteValue: SQLiteValue { .text(self) }
}

extension Data: SQLiteValueConvertible {
    /// `.blob(self)`.
    public var sqliteValue: SQLiteValue { .blob(self) }
}

extension Bool: SQLiteValueConvertible {
    /// `.integer(1)` or `.integer(0)`.
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}

extension SQLiteValue: SQLiteValueConvertible {
    /// The value itself.
    public var sqliteValue: SQLiteValue { self }
}

// MARK: - Accessors

extension SQLiteValue {
    /// Whether the value is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The integer, or `nil` when the value is not `.integer`. No conversion is attempted.
    public var int64Value: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number as a double: `.real` as is, `.integer` converted; otherwise `nil`.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// The text, or `nil` when the value is not `.text`.
    public var stringValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The bytes, or `nil` when the value is not `.blob`.
    public var dataValue: Data? {
        if case .blob(let value) = self { return value }
        return nil
    }

    /// The integer read as a Boolean (non-zero is `true`), or `nil` when not `.integer`.
    public var boolValue: Bool? {
        if case .integer(let value) = self { return value != 0 }
        return nil
    }
}

// MARK: - Literals

extension SQLiteValue: ExpressibleByNilLiteral {
    /// `nil` is `.null`.
    public init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
    /// An integer literal is `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
    /// A floating-point literal is `.real`.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLiteValue: ExpressibleByStringLiteral {
    /// A string literal is `.text`.
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue: ExpressibleByBooleanLiteral {
    /// `true` is `.integer(1)`, `false` is `.integer(0)`.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

// MARK: - Description

extension SQLiteValue: CustomStringConvertible {
    /// The value as an SQL literal would spell it: `NULL`, `42`, `2.5`, `'it''s'`, `X'00FF'`.
    public var description: String {
        switch self {
        case .null:
            return "NULL"
        case .integer(let value):
            return String(value)
        case .real(let value):
            return String(value)
        case .text(let value):
            return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let value):
            let hexDigits = Array("0123456789ABCDEF".utf8)
            var hex = [UInt8]()
            hex.reserveCapacity(value.count * 2)
            for byte in value {
                hex.append(hexDigits[Int(byte >> 4)])
                hex.append(hexDigits[Int(byte & 0x0F)])
            }
            return "X'" + String(decoding: hex, as: UTF8.self) + "'"
        }
    }
}

/// The five storage classes of SQLite values (<https://sqlite.org/datatype3.html>).
public enum SQLiteStorageClass: Sendable {
    case null, integer, real, text, blob
}
