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
package struct KeyedArchiveEncoder {
    private var objects: [PropertyListValue] = [.string("$null")]
    private var classes: [[String]: UInt64] = [:]
    private var inline: [PropertyListValue: UInt64] = [:]

    /// Creates an encoder.
    package init() {}

    /// The archive of `value`, as its `root` object.
    ///
    /// - Throws: `CoreDataFormatError` when an `ArchivedObject` has a field that refers to
    ///   another object (a `.uid`), which cannot be written without its archive.
    package static func encode(_ value: ArchivedValue) throws -> Data {
        var encoder = KeyedArchiveEncoder()
        let root = try encoder.add(value)
        return encoder.archive(top: ["root": root])
    }

    /// Adds `value` to the archive's objects, and gives its UID.
    ///
    /// - Throws: `CoreDataFormatError` as `encode(_:)` does.
    package mutating func add(_ value: ArchivedValue) throws -> UInt64 {
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
            return append([
                "NS.uuidbytes": .data(bytes), "$class": .uid(classUID(["NSUUID", "NSObject"])),
            ])
        case .url(let url):
            let base = try url.baseURL.map { try add(.url($0)) } ?? 0
            let relative = appendInline(.string(url.relativeString))
            return append([
                "NS.base": .uid(base), "NS.relative": .uid(relative),
                "$class": .uid(classUID(["NSURL", "NSObject"])),
            ])
        case .array(let elements), .set(let elements):
            let references = try elements.map { PropertyListValue.uid(try add($0)) }
            let chain =
                if case .set = value { ["NSSet", "NSObject"] } else { ["NSArray", "NSObject"] }
            return append(["NS.objects": .array(references), "$class": .uid(classUID(chain))])
        case .dictionary(let entries):
            let ordered = entries.sorted { Self.orderingText($0.key) < Self.orderingText($1.key) }
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
            fields["$class"] = .uid(
                classUID(object.classNames.isEmpty ? ["NSObject"] : object.classNames))
            return append(fields)
        }
    }

    /// The archive's bytes, with `top` as its top-level objects.
    package func archive(top: [String: UInt64]) -> Data {
        BinaryPropertyList.write(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"),
                "$version": .integer(100_000),
                "$top": .dictionary(top.mapValues { .uid($0) }),
                "$objects": .array(objects),
            ]))
    }

    // MARK: - Object graphs

    /// Reserves a UID for an object written later with `setObject(_:classNames:fields:)`, so
    /// that objects can refer to each other (an entity and its properties).
    mutating func reserveObject() -> UInt64 {
        objects.append(.null)
        return UInt64(objects.count - 1)
    }

    /// Writes the object reserved at `uid`: its class chain and fields, which may refer to
    /// other objects by `.uid`.
    mutating func setObject(
        _ uid: UInt64, classNames: [String], fields: [String: PropertyListValue]
    ) {
        var fields = fields
        fields["$class"] = .uid(classUID(classNames))
        objects[Int(uid)] = .dictionary(fields)
    }

    /// Adds an object of a class, whose fields may refer to other objects, and gives its UID.
    mutating func addObject(classNames: [String], fields: [String: PropertyListValue]) -> UInt64 {
        let uid = reserveObject()
        setObject(uid, classNames: classNames, fields: fields)
        return uid
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
            .dictionary([
                "$classname": .string(chain[0]), "$classes": .array(chain.map { .string($0) }),
            ]))
        let uid = UInt64(objects.count - 1)
        classes[chain] = uid
        return uid
    }

    /// A text that orders dictionary keys the same way on every run, so that equal values
    /// make equal archives. Written out rather than `description`, which traps on a NaN date.
    private static func orderingText(_ value: ArchivedValue) -> String {
        switch value {
        case .null: return "0"
        case .string(let text): return "s\(text.utf8.count):\(text)"
        case .integer(let number): return "i\(number)"
        case .unsignedInteger(let number): return "u\(number)"
        case .real(let number): return "r\(number.bitPattern)"
        case .bool(let flag): return flag ? "b1" : "b0"
        case .data(let bytes): return "x\(bytes.base64EncodedString())"
        case .date(let date): return "d\(date.timeIntervalSinceReferenceDate.bitPattern)"
        case .uuid(let uuid): return "g\(uuid.uuidString)"
        case .url(let url):
            return
                "l\(url.relativeString.utf8.count):\(url.relativeString) \(url.baseURL?.absoluteString ?? "")"
        case .array(let elements):
            return "a[" + elements.map(orderingText).joined(separator: ",") + "]"
        case .set(let elements):
            return "t[" + elements.map(orderingText).joined(separator: ",") + "]"
        case .dictionary(let entries):
            return "m["
                + entries.map { orderingText($0.key) + "=" + orderingText($0.value) }.sorted()
                .joined(separator: ",") + "]"
        case .object(let object):
            return "o\(object.classNames)"
                + BinaryPropertyList.write(.dictionary(object.fields)).base64EncodedString()
        }
    }

    private static func refersToObjects(_ value: PropertyListValue) -> Bool {
        switch value {
        case .uid: return true
        case .array(let elements), .set(let elements):
            return elements.contains(where: refersToObjects)
        case .dictionary(let entries): return entries.values.contains(where: refersToObjects)
        default: return false
        }
    }
}
