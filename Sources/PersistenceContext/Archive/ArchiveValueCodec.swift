import Foundation
import PersistenceModel
import PersistenceStore

/// Attribute values as archive JSON, and back.
///
/// | Attribute type | JSON |
/// |---|---|
/// | String, URI, UUID | a string (a UUID in its canonical upper-case form) |
/// | Integer 16/32/64 | a number without fraction or exponent |
/// | Double, Float | a number; `"inf"`, `"-inf"` and `"nan"` as strings |
/// | Decimal | a string with every digit (`DecimalText.format`); a number is read exactly too |
/// | Boolean | `true` or `false` |
/// | Date | ISO 8601 in UTC with the fraction it needs, to the microsecond (`DateText`) |
/// | Binary, Transformable | base64 of the bytes the store keeps (a transformable is read by its registered transformer, if any) |
///
/// `null` is no value. Integer ranges, minimums and maximums are not checked here: the save
/// checks them with the model's other rules and lists them with the other failures.
package enum ArchiveValueCodec {
    /// The JSON for an attribute's value.
    ///
    /// - Throws: `ValueTransformerError` when a transformable value cannot be encoded.
    package static func json(
        _ value: AttributeValue, for attribute: AttributeDescription, entity: String
    )
        throws -> JSONValue
    {
        switch value {
        case .null: return .null
        case .integer(let v): return .number(String(v))
        case .double(let v):
            if v.isNaN { return .string("nan") }
            if v.isInfinite { return .string(v < 0 ? "-inf" : "inf") }
            return .number(attribute.type == .float ? Float(v).description : v.description)
        case .decimal(let v): return .string(DecimalText.format(v))
        case .bool(let v): return .bool(v)
        case .string(let v): return .string(v)
        case .date(let v): return .string(DateText.formatISO8601(v))
        case .uuid(let v): return .string(v.uuidString)
        case .url(let v): return .string(v.absoluteString)
        case .data(let v): return .string(v.base64EncodedString())
        case .transformable(let inner):
            // The bytes a store keeps: the named transformer's output, or passed-through bytes.
            return .string(try TransformableCodec.encode(inner, attribute: attribute, entity: entity).base64EncodedString())
        }
    }

    /// The attribute value a JSON value denotes.
    ///
    /// - Throws: a reason, when the JSON is of the wrong kind or its text is not a value of
    ///   the attribute's type.
    package static func value(_ json: JSONValue, for attribute: AttributeDescription)
        throws(ArchiveValueFailure)
        -> AttributeValue
    {
        if case .null = json { return .null }
        switch (attribute.type, json) {
        case (.integer16, .number(let text)), (.integer32, .number(let text)),
            (.integer64, .number(let text)):
            if let v = Int64(text) { return .integer(v) }
            if text.contains(where: { ".eE".contains($0) }) {
                throw ArchiveValueFailure(
                    "expected an integer for \(attribute.type.rawValue), got \(QuotedText.excerpt(text))")
            }
            throw ArchiveValueFailure("\(QuotedText.excerpt(text)) is outside the range of Integer 64")
        case (.double, .number(let text)), (.float, .number(let text)):
            guard let v = Double(text), v.isFinite else {
                throw ArchiveValueFailure(
                    "\(QuotedText.excerpt(text)) is outside the range of \(attribute.type.rawValue); write \"inf\" or \"-inf\" for an infinity"
                )
            }
            return .double(v)
        case (.double, .string(let text)), (.float, .string(let text)):
            switch text {
            case "inf": return .double(.infinity)
            case "-inf": return .double(-.infinity)
            case "nan": return .double(.nan)
            default:
                throw ArchiveValueFailure(
                    "expected a number, or \"inf\", \"-inf\" or \"nan\", for \(attribute.type.rawValue), got \(QuotedText.doubleQuotedExcerpt(text))"
                )
            }
        case (.decimal, .string(let text)), (.decimal, .number(let text)):
            do { return .decimal(try DecimalText.parse(text)) } catch {
                throw ArchiveValueFailure("\(error)")
            }
        case (.boolean, .bool(let v)):
            return .bool(v)
        case (.string, .string(let text)):
            return .string(text)
        case (.date, .string(let text)):
            do { return .date(try DateText.parseISO8601(text)) } catch {
                throw ArchiveValueFailure("\(error)")
            }
        case (.uuid, .string(let text)):
            guard let v = UUID(uuidString: text) else {
                throw ArchiveValueFailure("\(QuotedText.doubleQuotedExcerpt(text)) is not a UUID")
            }
            return .uuid(v)
        case (.uri, .string(let text)):
            guard let v = URL(string: text) else {
                throw ArchiveValueFailure("\(QuotedText.doubleQuotedExcerpt(text)) is not a URI")
            }
            return .url(v)
        case (.binaryData, .string(let text)), (.transformable, .string(let text)):
            guard let bytes = Data(base64Encoded: text) else {
                throw ArchiveValueFailure(
                    "expected base64 text for \(attribute.type.rawValue), got \(describe(text))")
            }
            if attribute.type == .binaryData { return .data(bytes) }
            return .transformable(try appValue(bytes, for: attribute))
        default:
            throw ArchiveValueFailure(
                "expected \(expected(attribute.type)), got \(json.kindDescription) (\(json.shortDescription))"
            )
        }
    }

    /// A transformable's value from its stored bytes: the app's value when the attribute's
    /// transformer is registered (so bad bytes are refused here, with their JSON path), else
    /// the bytes themselves, passed through as the store keeps them.
    private static func appValue(_ bytes: Data, for attribute: AttributeDescription)
        throws(ArchiveValueFailure) -> any Sendable
    {
        guard let name = attribute.valueTransformerName,
            let transformer = ValueTransformers.transformer(forName: name)
        else { return TransformableBytes(bytes) }
        do { return try transformer.reverseTransformedValue(bytes) } catch {
            throw ArchiveValueFailure(
                "the bytes are not a value the transformer '\(name)' can read (\(error))")
        }
    }

    private static func expected(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64: return "a number (\(type.rawValue))"
        case .double, .float: return "a number or \"inf\", \"-inf\", \"nan\" (\(type.rawValue))"
        case .decimal: return "a string of decimal digits (Decimal)"
        case .boolean: return "true or false (Boolean)"
        case .string: return "a string (String)"
        case .date: return "an ISO 8601 string (Date)"
        case .uuid: return "a UUID string (UUID)"
        case .uri: return "a URI string (URI)"
        case .binaryData, .transformable: return "a base64 string (\(type.rawValue))"
        case .objectID, .undefined: return "no value (\(type.rawValue))"
        }
    }

    private static func describe(_ text: String) -> String {
        text.count > 40
            ? QuotedText.doubleQuoted(String(text.prefix(40)) + "…") : QuotedText.doubleQuoted(text)
    }
}

/// Why a JSON value is not a value of an attribute.
package struct ArchiveValueFailure: Error {
    package let reason: String
    init(_ reason: String) { self.reason = reason }
}
