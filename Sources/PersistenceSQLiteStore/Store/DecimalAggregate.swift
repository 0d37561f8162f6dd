import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore

/// The SQL aggregates `decimal_sum(x)` and `decimal_avg(x)` over Decimal columns, which
/// the store registers on every connection next to the `DECIMAL` collation.
///
/// They read the canonical text a Decimal column holds (``DecimalText/parse(_:)``; an
/// INTEGER or REAL is read as the store's row codec reads it), skip NULLs, and add with
/// ``DecimalSum``, exactly as the in-memory evaluator does, so that
/// `authors where books.@sum.price == 0.3` means the same in SQL and in memory. Both return
/// canonical Decimal text (``DecimalText/format(_:)``): `decimal_sum` returns `'0'` for no
/// rows, `decimal_avg` returns NULL.
///
/// A value that is not a decimal number (say `'abc'` or a BLOB) or a sum beyond `Decimal`'s
/// range makes the statement fail with an ``SQLiteError`` whose message names the value.
struct DecimalAggregate: DatabaseAggregate {
    /// What the aggregate returns.
    enum Result: String {
        /// The sum, `'0'` when empty.
        case sum = "decimal_sum"
        /// The mean, NULL when empty.
        case average = "decimal_avg"
    }

    let result: Result
    private var sum = DecimalSum()

    init(_ result: Result) {
        self.result = result
    }

    /// Registers `decimal_sum` and `decimal_avg` on `database`.
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    static func register(on database: Database) throws {
        for result in [Result.sum, .average] {
            try database.createAggregate(result.rawValue, argumentCount: 1) {
                DecimalAggregate(result)
            }
        }
    }

    mutating func step(_ arguments: [SQLiteValue]) throws {
        let term: Decimal
        switch arguments.first ?? .null {
        case .null:
            return
        case .integer(let integer):
            term = Decimal(integer)
        case .real(let real):
            term = try decimal(String(real), from: .real(real))
        case .text(let text):
            term = try decimal(text, from: .text(text))
        case .blob(let data):
            throw DecimalAggregateError(
                function: result.rawValue, value: .blob(data), reason: "a blob is not a decimal number")
        }
        do {
            try sum.add(term)
        } catch {
            throw DecimalAggregateError(
                function: result.rawValue, value: arguments[0], reason: error.description)
        }
    }

    func finalize() throws -> SQLiteValue {
        switch result {
        case .sum: return .text(DecimalText.format(sum.total))
        case .average: return sum.average.map { .text(DecimalText.format($0)) } ?? .null
        }
    }

    /// Parses `text`, or throws an error naming the function and the value.
    private func decimal(_ text: String, from value: SQLiteValue) throws -> Decimal {
        do {
            return try DecimalText.parse(text)
        } catch {
            throw DecimalAggregateError(
                function: result.rawValue, value: value, reason: error.description)
        }
    }
}

/// `decimal_sum` or `decimal_avg` met a value it cannot add.
struct DecimalAggregateError: Error, CustomStringConvertible {
    /// The SQL function's name.
    let function: String
    /// The value it could not add.
    let value: SQLiteValue
    /// Why.
    package let reason: String

    var description: String {
        "\(function) cannot add the value \(valueText): \(reason)"
    }

    private var valueText: String {
        switch value {
        case .null: "NULL"
        case .integer(let i): String(i)
        case .real(let r): String(r)
        case .text(let t): "'\(QuotedText.forMessage(t))'"
        case .blob(let d): "a \(d.count)-byte blob"
        }
    }
}
