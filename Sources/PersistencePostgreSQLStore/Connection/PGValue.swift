#if PostgreSQL
import CLibPQ
import Foundation

/// A parameter of a statement, sent as text with its type, so that the server never parses
/// a value as SQL.
package enum PGValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    /// Exact decimal digits, as `DecimalText` writes them.
    case numeric(String)
    case bytes(Data)
    case uuid(UUID)
    case bool(Bool)
    /// A `bigint[]`, for `= ANY($n)` over many keys in one parameter.
    case integerArray([Int64])
    /// A `text[]` of names.
    case textArray([String])

    /// The value as libpq sends it in text format; nil for SQL NULL.
    var text: String? {
        switch self {
        case .null: return nil
        case .integer(let value): return String(value)
        case .double(let value):
            if value.isNaN { return "NaN" }
            if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
            return "\(value)"
        case .text(let value): return value
        case .numeric(let value): return value
        case .bytes(let data): return "\\x" + data.map { String(format: "%02x", $0) }.joined()
        case .uuid(let uuid): return uuid.uuidString.lowercased()
        case .bool(let value): return value ? "true" : "false"
        case .integerArray(let values): return "{" + values.map(String.init).joined(separator: ",") + "}"
        case .textArray(let values):
            let quoted = values.map { value in
                "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
            return "{" + quoted.joined(separator: ",") + "}"
        }
    }

    /// The parameter's type OID (`pg_type`), so that `$1` needs no cast; 0 lets the server infer.
    var typeOID: Oid {
        switch self {
        case .null: return 0
        case .integer: return 20  // int8
        case .double: return 701  // float8
        case .text: return 25  // text
        case .numeric: return 1700
        case .bytes: return 17  // bytea
        case .uuid: return 2950
        case .bool: return 16
        case .integerArray: return 1016  // int8[]
        case .textArray: return 1009  // text[]
        }
    }
}

/// An error from the server or libpq: its message, SQLSTATE and whether the connection was lost.
package struct PostgreSQLError: Error, CustomStringConvertible, Sendable {
    package let message: String
    package let sqlState: String?
    /// Whether the connection is gone (server restarted, network down): the operation failed
    /// and the next one reconnects.
    package let isConnectionLost: Bool
    /// The constraint a violation names (`23505` unique violations), when the server says.
    package var constraint: String?

    package init(message: String, sqlState: String?, isConnectionLost: Bool, constraint: String? = nil) {
        self.message = message
        self.sqlState = sqlState
        self.isConnectionLost = isConnectionLost
        self.constraint = constraint
    }

    package var description: String { "PostgreSQL: \(message)" }

    /// A unique violation (SQLSTATE 23505).
    package var isUniqueViolation: Bool { sqlState == "23505" }
    /// A serialization failure or deadlock: the transaction may be tried again by its caller.
    package var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }
}
#endif
