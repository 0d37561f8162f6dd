import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteFiles

/// Encodes attribute values into SQLite values and decodes them back, exactly.
///
/// | Attribute type | Column | Encoding |
/// |---|---|---|
/// | Integer 16/32/64 | INTEGER | the integer |
/// | Boolean | INTEGER | 0 or 1 |
/// | Double, Float | REAL | the number; ±infinity as SQLite's infinities; NaN as the text `NaN` (SQLite turns a bound NaN into NULL) |
/// | Decimal | TEXT | canonical plain digits (`DecimalText.format`), every digit kept |
/// | Date | REAL | seconds since 1970, so `datetime(x, 'unixepoch')` works in the shell |
/// | String | TEXT | the string |
/// | UUID | TEXT | canonical uppercase form |
/// | URI | TEXT | the absolute string |
/// | Binary | BLOB | the bytes (or an external reference, see `ExternalDataStore`) |
/// | Transformable | BLOB | the named transformer's bytes, else JSON of an `Encodable` value |
///
/// Negative zero in a Double or Float attribute reads back from the store as `0.0`: SQLite
/// keeps an integral REAL as an integer on disk, which has no sign. This is deliberate:
/// storing `-0.0` apart (as text, as NaN is) would make it sort after every number and
/// drop out of SQL comparisons and sums, while `-0.0 == 0.0` everywhere else; Core Data's
/// SQLite store behaves the same. The saving context keeps the `-0.0` it was given until
/// the object is re-read. `DoubleSignedZeroTests` pins this.
package enum RowCodec {
    /// The SQLite value that stores `value` in a column of `attribute`.
    ///
    /// - Throws: `ValueTransformerError` when a transformable value cannot be encoded.
    package static func encode(_ value: AttributeValue, for attribute: AttributeDescription, entity: String)
        throws -> SQLiteValue
    {
        if case .transformable(let v) = value { return .blob(try TransformableCodec.encode(v, attribute: attribute, entity: entity)) }
        return encodeUntransformed(value)
    }

    /// The SQLite value that stores `value`, for every value but a transformable one (which
    /// needs its attribute's transformer: use `encode(_:for:entity:)`); `.null` for that.
    package static func encodeUntransformed(_ value: AttributeValue) -> SQLiteValue {
        switch value {
        case .null: return .null
        case .integer(let v): return .integer(v)
        case .double(let v): return v.isNaN ? .text("NaN") : .real(v)
        case .decimal(let v): return .text(DecimalText.format(v))
        case .bool(let v): return .integer(v ? 1 : 0)
        case .string(let v): return .text(v)
        case .date(let v): return .real(v.timeIntervalSince1970)
        case .uuid(let v): return .text(UUIDText.format(v))
        case .url(let v): return .text(v.absoluteString)
        case .data(let v): return .blob(v)
        case .transformable: return .null
        }
    }

    /// Decodes a column value written by `encode` (or by hand in the `sqlite3` shell, where
    /// the conversion is unambiguous).
    ///
    /// - Throws: `StoreError.corruptValue` when the stored value cannot be read as the
    ///   attribute's type.
    package static func decode(_ value: SQLiteValue, for attribute: AttributeDescription, entity: String)
        throws -> AttributeValue
    {
        if case .null = value { return .null }
        func corrupt() -> StoreError {
            .corruptValue(entity: entity, attribute: attribute.name, found: value.typeName)
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            switch value {
            case .integer(let v): return .integer(v)
            case .real(let v) where v.rounded() == v && abs(v) < 9.2e18: return .integer(Int64(v))
            case .text(let t): if let v = Int64(t) { return .integer(v) }
            default: break
            }
        case .boolean:
            if case .integer(let v) = value { return .bool(v != 0) }
        case .double, .float:
            switch value {
            case .real(let v): return .double(v)
            case .integer(let v): return .double(Double(v))
            case .text(let t): if let v = Double(t) { return .double(v) }
            default: break
            }
        case .decimal:
            switch value {
            case .text(let t):
                if let v = try? DecimalText.parse(t) { return .decimal(v) }
                // What `encode` writes for a NaN, which then reads back as one.
                if t == DecimalText.format(.nan) { return .decimal(.nan) }
            case .integer(let v): return .decimal(Decimal(v))
            case .real(let v): if let d = try? DecimalText.parse(String(v)) { return .decimal(d) }
            default: break
            }
        case .date:
            switch value {
            case .real(let v): return .date(Date(timeIntervalSince1970: v))
            case .integer(let v): return .date(Date(timeIntervalSince1970: Double(v)))
            default: break
            }
        case .string:
            if case .text(let t) = value { return .string(t) }
        case .uuid:
            switch value {
            case .text(let t): if let v = UUIDText.parse(t) { return .uuid(v) }
            case .blob(let d) where d.count == 16:
                return .uuid(d.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
            default: break
            }
        case .uri:
            if case .text(let t) = value, let v = URL(string: t) { return .url(v) }
        case .binaryData:
            if case .blob(let d) = value { return .data(d) }
        case .transformable:
            if case .blob(let d) = value {
                return .transformable(try TransformableCodec.decode(d, attribute: attribute, entity: entity))
            }
        case .objectID, .undefined:
            break
        }
        throw corrupt()
    }

}

