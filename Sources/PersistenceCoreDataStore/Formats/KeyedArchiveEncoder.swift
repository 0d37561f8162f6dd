import Foundation

/// Writes values as `NSKeyedArchiver` does, so that Core Data on Apple platforms reads them
/// back: a binary property list with `$archiver`, `$version` 100000, `$top` → `root`, and
/// `$objects` starting with `$null`.
///
/// Strings, numbers and data are stored inline in `$objects`, as `NSKeyedArchiver` stores
/// `NSString`, `NSNumber` and `NSData`; dates, UUIDs, URLs, arrays, sets, dictionaries and
/// null are objects of their Foundation class (`NSDate` with `NS.time`, `NSUUID` with
/// `NS.uuidbytes`, `NSURL` with `NS.base` and `NS.relative`, `NSArray`/`NSSet` with
/// `NS.objects`, `NSDictionary` with `NS.keys` and `NS.objects`, `NSNull`). An
/// `ArchivedObject` is written with its class chain and its fields, which must all be
/// inline values (no `.uid`), as in an archived color.
public struct KeyedArchiveEncoder {
    private var objects: [PropertyListValue] = [.string("$null")]
    private var classes: [[String]: UInt64] = [:]
    private var inline: [PropertyListValue: UInt64] = [:]

    /// Creates an encoder.
    public init() {}

    /// The archive of `value`, as its `root` object.
    ///
    /// - Throws: `CoreDataFormatError` when an `ArchivedObject` has a field that refers to
    ///   another object (a `.uid`), which cannot be written without its archive.
    public static func encode(_ value: ArchivedValue) throws -> Data {
        var encoder = KeyedArchiveEncoder()
        let root = try encoder.add(value)
        return encoder.archive(top: ["root": root])
    }

    /// Adds `value` to the archive's objects, and gives its UID.
    ///
    /// - Throws: `CoreDataFormatError` as `encode(_:)` does.
    public mutating func add(_ value: ArchivedValue) throws -> UInt64 {
        switch value {
        case .null:
            return append(["$class": .uid(classUID(["NSNull", "NSObject"]))])
        case .string(let text): return appendInline(.string(text))
        case .integer(let number): return appendInline(.integer(number))
        case .unsignedInteger(let number): return appendInline(.unsignedInteger(number))
        case .real(let number): return appendInline(.real(number))
        case .bool(let flag): return appendInline(.bool(flag))
        case .data(let bytes): return appendInline(.data(bytes))
        case .date(let date):
            return append([
                "NS.time": .real(date.timeIntervalSinceReferenceDate),
                "$class": .uid(classUID(["NSDate", "NSObject"])),
            ])
        case .uuid(let uuid):
            let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
            return append(["NS.uuidbytes": .data(bytes), "$class": .uid(classUID(["NSUUID", "NSObject"]))])
        case .url(let url):
            let base = try url.baseURL.map { try add(.url($0)) } ?? 0
            let relative = appendInline(.string(url.relativeString))
            return append([
                "NS.base": .uid(base), "NS.relative": .uid(relative), "$class": .uid(classUID(["NSURL", "NSObject"])),
            ])
        case .array(let elements), .set(let elements):
            let references = try elements.map { PropertyListValue.uid(try add($0)) }
            let chain = if case .set = value { ["NSSet", "NSObject"] } else { ["NSArray", "NSObject"] }
            return append(["NS.objects": .array(references), "$class": .uid(classUID(chain))])
        case .dictionary(let entries):
            let ordered = entries.sorted { "\($0.key)" < "\($1.key)" }
            let keys = try ordered.map { PropertyListValue.uid(try add($0.key)) }
            let values = try ordered.map { PropertyListValue.uid(try add($0.value)) }
            return append([
                "NS.keys": .array(keys), "NS.objects": .array(values),
                "$class": .uid(classUID(["NSDictionary", "NSObject"])),
            ])
        case .object(let object):
            var fields = object.fields
            for (key, field) in fields where Self.refersToObjects(field) {
                throw CoreDataFormatError(
                    .keyedArchive, at: "object of class \(object.className), field \(key)",
                    "a reference to another object cannot be written without its archive")
            }
            fields["$class"] = .uid(classUID(object.classNames.isEmpty ? ["NSObject"] : object.classNames))
            return append(fields)
        }
    }

    /// The archive's bytes, with `top` as its top-level objects.
    public func archive(top: [String: UInt64]) -> Data {
        BinaryPropertyList.write(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"),
                "$version": .integer(100_000),
                "$top": .dictionary(top.mapValues { .uid($0) }),
                "$objects": .array(objects),
            ]))
    }

    // MARK: - Internals

    private mutating func append(_ fields: [String: PropertyListValue]) -> UInt64 {
        objects.append(.dictionary(fields))
        return UInt64(objects.count - 1)
    }

    private mutating func appendInline(_ value: PropertyListValue) -> UInt64 {
        if let known = inline[value] { return known }
        objects.append(value)
        let uid = UInt64(objects.count - 1)
        inline[value] = uid
        return uid
    }

    private mutating func classUID(_ chain: [String]) -> UInt64 {
        if let known = classes[chain] { return known }
        objects.append(
            .dictionary(["$classname": .string(chain[0]), "$classes": .array(chain.map { .string($0) })]))
        let uid = UInt64(objects.count - 1)
        classes[chain] = uid
        return uid
    }

    private static func refersToObjects(_ value: PropertyListValue) -> Bool {
        switch value {
        case .uid: return true
        case .array(let elements), .set(let elements): return elements.contains(where: refersToObjects)
        case .dictionary(let entries): return entries.values.contains(where: refersToObjects)
        default: return false
        }
    }
}
