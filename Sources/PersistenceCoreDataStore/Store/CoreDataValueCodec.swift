import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteFiles

/// Attribute values as Core Data keeps them in its SQLite columns, exactly, and back.
///
/// | Attribute type | Column | Encoding |
/// |---|---|---|
/// | Integer 16/32/64, Boolean | INTEGER | the integer; 0 or 1 |
/// | Double, Float | FLOAT | the number |
/// | Decimal | DECIMAL | its digits, which the column's NUMERIC affinity keeps as an integer or REAL where that is exact, else as text |
/// | Date | TIMESTAMP | seconds since 2001-01-01 00:00:00 UTC (`CoreDataTimestamp`) |
/// | String | VARCHAR | the string |
/// | UUID | BLOB | the 16 bytes |
/// | URI | VARCHAR | the absolute string |
/// | Binary | BLOB | the bytes; with external storage allowed, a marker byte first: 1 and the bytes, or 2 and the name of a file in `.<store>_SUPPORT/_EXTERNAL_DATA/` |
/// | Transformable | BLOB | the named transformer's bytes; a keyed archive for no transformer or Foundation's unarchiving ones (see `CoreDataArchivedValues`) |
enum CoreDataValueCodec {
    /// The marker byte before bytes kept in the row, in a column that allows external storage.
    static let inlineMarker: UInt8 = 1
    /// The marker byte before the name of an external file.
    static let externalMarker: UInt8 = 2

    /// The column value that stores `value` for `attribute`.
    ///
    /// - Throws: `ValueTransformerError` when a transformable value cannot be encoded.
    static func encode(_ value: AttributeValue, for attribute: AttributeDescription, entity: String) throws -> SQLiteValue {
        switch value {
        case .null: return .null
        case .integer(let v): return .integer(v)
        // SQLite binds NaN as NULL: it is kept as text, as the SQLite store keeps it.
        case .double(let v): return v.isNaN ? .text("NaN") : .real(v)
        // Bound as its digits: the column's NUMERIC affinity keeps an integer or a REAL
        // where that loses nothing, and the text otherwise.
        case .decimal(let v): return .text(DecimalText.format(v))
        case .bool(let v): return .integer(v ? 1 : 0)
        case .string(let v): return .text(v)
        case .date(let v): return .real(CoreDataTimestamp.seconds(of: v))
        case .uuid(let v): return .blob(withUnsafeBytes(of: v.uuid) { Data($0) })
        case .url(let v): return .text(v.absoluteString)
        case .data(let v):
            return .blob(attribute.allowsExternalBinaryDataStorage ? Data([inlineMarker]) + v : v)
        case .transformable(let v):
            if CoreDataArchivedValues.isArchived(attribute), !(v is TransformableBytes), let archive = try CoreDataArchivedValues.archive(v) {
                return .blob(archive)
            }
            return .blob(try TransformableCodec.encode(v, attribute: attribute, entity: entity))
        }
    }

    /// The value a column holds for `attribute`; `externalFolder` is where a binary value
    /// kept outside the row is read from. A transformable value kept as a keyed archive (see
    /// `CoreDataArchivedValues`) is decoded when `decodesArchives`, else passed through as
    /// its bytes.
    ///
    /// - Throws: `StoreError.corruptValue` for a value that cannot be read as the attribute's
    ///   type; `StoreError.unreadableExternalData` for an external file that cannot be read.
    static func decode(
        _ value: SQLiteValue, for attribute: AttributeDescription, entity: String, object: @autoclosure () -> String,
        externalFolder: URL?, decodesArchives: Bool = true, path: String? = nil
    ) throws -> AttributeValue {
        if case .null = value { return .null }
        func corrupt() -> StoreError { .corruptValue(entity: entity, attribute: attribute.name, found: value.typeName) }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            switch value {
            case .integer(let v): return .integer(v)
            case .real(let v) where v.rounded() == v && abs(v) < 9.2e18: return .integer(Int64(v))
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
            case .integer(let v): return .decimal(Decimal(v))
            case .real(let v): if let text = DecimalText.plainText(of: v), let d = try? DecimalText.parse(text) { return .decimal(d) }
            case .text(let t): if let d = try? DecimalText.parse(t) { return .decimal(d) }
            default: break
            }
        case .date:
            switch value {
            case .real(let v): return .date(CoreDataTimestamp.date(fromSeconds: v))
            case .integer(let v): return .date(CoreDataTimestamp.date(fromSeconds: Double(v)))
            default: break
            }
        case .string:
            if case .text(let t) = value { return .string(t) }
        case .uuid:
            switch value {
            case .blob(let d) where d.count == 16:
                return .uuid(d.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
            case .text(let t): if let v = UUID(uuidString: t) { return .uuid(v) }
            default: break
            }
        case .uri:
            switch value {
            case .text(let t): if let v = URL(string: t) { return .url(v) }
            case .blob(let d): if let t = String(data: d, encoding: .utf8), let v = URL(string: t) { return .url(v) }
            default: break
            }
        case .binaryData:
            guard case .blob(let d) = value else { break }
            guard attribute.allowsExternalBinaryDataStorage, let marker = d.first else { return .data(d) }
            let rest = d.dropFirst()
            if marker == inlineMarker { return .data(Data(rest)) }
            if marker == externalMarker {
                return .data(try external(rest, attribute: attribute, object: object(), folder: externalFolder))
            }
        case .transformable:
            guard case .blob(let d) = value else { break }
            if decodesArchives, CoreDataArchivedValues.isArchived(attribute), BinaryPropertyList.isBinaryPropertyList(d) {
                do { return .transformable(try KeyedArchive.transformedValue(from: d)) } catch {
                    throw CoreDataStoreError(
                        path: path, "the archived value of \(object()).\(attribute.name) can't be decoded: \(error)")
                }
            }
            return .transformable(try TransformableCodec.decode(d, attribute: attribute, entity: entity))
        case .objectID, .undefined:
            break
        }
        throw corrupt()
    }

    /// The bytes of an external file, named (in ASCII, perhaps NUL-terminated) by `reference`.
    private static func external(_ reference: Data, attribute: AttributeDescription, object: String, folder: URL?) throws -> Data {
        let name = String(decoding: reference.prefix { $0 != 0 }, as: UTF8.self)
        guard let folder, !name.isEmpty, !name.contains("/"), name != "..", name != "." else {
            throw StoreError.unreadableExternalData(
                object: object, attribute: attribute.name, path: folder?.path ?? "-", reason: "the row names no file")
        }
        let url = folder.appendingPathComponent(name)
        do { try ExternalDataFiles.refuseLinkedFolders(folder.path) } catch {
            throw StoreError.unreadableExternalData(
                object: object, attribute: attribute.name, path: url.path,
                reason: "its folder is a symbolic link or not a folder, which is never followed")
        }
        do { return try ExternalDataFiles.readRegularFile(url.path) } catch {
            throw StoreError.unreadableExternalData(
                object: object, attribute: attribute.name, path: url.path, reason: error.reason)
        }
    }
}
