import Foundation

/// One decoding of a keyed archive's objects into `ArchivedValue`s: follows UIDs, finds
/// cycles, and bounds depth and size (see `KeyedArchive`).
struct KeyedArchiveDecoding {
    private let archive: KeyedArchive
    /// Objects decoded already, with the number of values each expands to.
    private var decoded: [UInt64: (value: ArchivedValue, size: Int)] = [:]
    /// Objects being decoded, to find cycles.
    private var inProgress: Set<UInt64> = []
    private var depth = 0

    init(archive: KeyedArchive) {
        self.archive = archive
    }

    // MARK: - References

    /// Decodes the object a UID names; `context` says where the reference was found.
    mutating func decode(_ uid: UInt64, from context: String) throws -> (
        value: ArchivedValue, size: Int
    ) {
        if uid == 0 { return (.null, 1) }
        guard uid < UInt64(archive.objects.count) else {
            throw KeyedArchive.error(
                at: context, "the UID \(uid) is not one of the \(archive.objects.count) objects")
        }
        if let known = decoded[uid] { return known }
        guard !inProgress.contains(uid) else {
            throw KeyedArchive.error(at: context, "object \(uid) contains itself (a cycle)")
        }
        inProgress.insert(uid)
        depth += 1
        defer {
            inProgress.remove(uid)
            depth -= 1
        }
        guard depth <= KeyedArchive.maximumDepth else {
            throw KeyedArchive.error(
                at: context, "nesting deeper than \(KeyedArchive.maximumDepth) objects")
        }
        let result = try decodeObject(uid)
        decoded[uid] = result
        return result
    }

    /// Decodes a field's value: a UID is followed, an inline scalar taken as it is.
    mutating func decodeInline(_ field: PropertyListValue, from context: String) throws -> (
        value: ArchivedValue, size: Int
    ) {
        switch field {
        case .uid(let uid): return try decode(uid, from: context)
        case .array(let elements):
            var values: [ArchivedValue] = []
            var size = 1
            for element in elements {
                let value = try decodeInline(element, from: context)
                values.append(value.value)
                size = try add(size, value.size, context)
            }
            return (.array(values), size)
        default:
            guard let scalar = Self.scalar(field) else {
                throw KeyedArchive.error(
                    at: context,
                    "\(field.kindWithArticle) inline, where a value or a reference should be")
            }
            return (scalar, 1)
        }
    }

    // MARK: - Objects

    private mutating func decodeObject(_ uid: UInt64) throws -> (value: ArchivedValue, size: Int) {
        let stored = archive.objects[Int(uid)]
        if let scalar = Self.scalar(stored) { return (scalar, 1) }
        guard case .dictionary(let fields) = stored else {
            throw KeyedArchive.error(
                at: "object \(uid)", "\(stored.kindWithArticle) where an archived object should be")
        }
        let classNames = try archive.classNames(of: fields, uid: uid)
        let className = classNames[0]
        let location = "object \(uid) (\(className))"
        func field(_ key: String) throws -> PropertyListValue {
            guard let value = fields[key] else {
                throw KeyedArchive.error(at: location, "no \(key) field")
            }
            return value
        }
        func wrongType(_ key: String, _ value: PropertyListValue, _ expected: String)
            -> CoreDataFormatError
        {
            KeyedArchive.error(
                at: "\(location), field \(key)", "\(value.kindWithArticle), not \(expected)")
        }
        switch className {
        case "NSString", "NSMutableString":
            let text = try field("NS.string")
            if case .string = text {
                return (try decodeInline(text, from: "\(location), field NS.string"))
            }
            guard case .uid(let reference) = text,
                case .string(let string) = try decode(
                    reference, from: "\(location), field NS.string"
                ).value
            else { throw wrongType("NS.string", text, "a string") }
            return (.string(string), 1)
        case "NSData", "NSMutableData":
            let bytes = try field("NS.data")
            if case .data(let data) = bytes { return (.data(data), 1) }
            guard case .uid(let reference) = bytes,
                case .data(let data) = try decode(reference, from: "\(location), field NS.data")
                    .value
            else { throw wrongType("NS.data", bytes, "data") }
            return (.data(data), 1)
        case "NSDate":
            let time = try field("NS.time")
            switch time {
            case .real(let seconds) where !seconds.isFinite:
                throw wrongType("NS.time", time, "a finite number of seconds")
            case .real(let seconds):
                return (.date(Date(timeIntervalSinceReferenceDate: seconds)), 1)
            case .integer(let seconds):
                return (.date(Date(timeIntervalSinceReferenceDate: Double(seconds))), 1)
            default: throw wrongType("NS.time", time, "a number of seconds")
            }
        case "NSUUID":
            let bytes = try field("NS.uuidbytes")
            guard case .data(let data) = bytes else {
                throw wrongType("NS.uuidbytes", bytes, "16 bytes")
            }
            guard data.count == 16 else {
                throw KeyedArchive.error(
                    at: "\(location), field NS.uuidbytes", "\(data.count) bytes, not 16")
            }
            let b = [UInt8](data)
            return (
                .uuid(
                    UUID(
                        uuid: (
                            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10],
                            b[11], b[12], b[13], b[14], b[15]
                        ))), 1
            )
        case "NSURL":
            return try decodeURL(fields, location: location)
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet",
            "NSMutableOrderedSet":
            let elements = try field("NS.objects")
            guard case .array(let references) = elements else {
                throw wrongType("NS.objects", elements, "an array")
            }
            var values: [ArchivedValue] = []
            values.reserveCapacity(references.count)
            var size = 1
            for (position, reference) in references.enumerated() {
                let context = "\(location), field NS.objects, element \(position)"
                guard case .uid(let elementUID) = reference else {
                    throw KeyedArchive.error(at: context, "\(reference.kindWithArticle), not a UID")
                }
                let element = try decode(elementUID, from: context)
                values.append(element.value)
                size = try add(size, element.size, context)
            }
            let isSet = className == "NSSet" || className == "NSMutableSet"
            return (isSet ? .set(values) : .array(values), size)
        case "NSDictionary", "NSMutableDictionary":
            return try decodeDictionary(fields, location: location)
        case "NSNull":
            return (.null, 1)
        default:
            var objectFields = fields
            objectFields["$class"] = nil
            return (
                .object(ArchivedObject(uid: uid, classNames: classNames, fields: objectFields)), 1
            )
        }
    }

    private mutating func decodeURL(_ fields: [String: PropertyListValue], location: String) throws
        -> (
            value: ArchivedValue, size: Int
        )
    {
        guard case .uid(let relativeUID) = fields["NS.relative"] ?? .null,
            case .string(let relative) = try decode(
                relativeUID, from: "\(location), field NS.relative"
            ).value
        else {
            throw KeyedArchive.error(
                at: "\(location), field NS.relative", "not a reference to a string")
        }
        var base: URL?
        if case .uid(let baseUID) = fields["NS.base"] ?? .null {
            switch try decode(baseUID, from: "\(location), field NS.base").value {
            case .null: base = nil
            case .url(let url): base = url
            default: throw KeyedArchive.error(at: "\(location), field NS.base", "not a URL")
            }
        }
        guard let url = URL(string: relative, relativeTo: base) else {
            throw KeyedArchive.error(
                at: "\(location), field NS.relative", "'\(relative.prefix(80))' is not a URL")
        }
        return (.url(url), 1)
    }

    private mutating func decodeDictionary(_ fields: [String: PropertyListValue], location: String)
        throws -> (
            value: ArchivedValue, size: Int
        )
    {
        guard case .array(let keys) = fields["NS.keys"] ?? .null else {
            throw KeyedArchive.error(at: "\(location), field NS.keys", "missing or not an array")
        }
        guard case .array(let values) = fields["NS.objects"] ?? .null else {
            throw KeyedArchive.error(at: "\(location), field NS.objects", "missing or not an array")
        }
        guard keys.count == values.count else {
            throw KeyedArchive.error(at: location, "\(keys.count) keys but \(values.count) values")
        }
        var entries: [ArchivedValue: ArchivedValue] = [:]
        var size = 1
        for position in keys.indices {
            let keyContext = "\(location), field NS.keys, element \(position)"
            let valueContext = "\(location), field NS.objects, element \(position)"
            guard case .uid(let keyUID) = keys[position] else {
                throw KeyedArchive.error(
                    at: keyContext, "\(keys[position].kindWithArticle), not a UID")
            }
            guard case .uid(let valueUID) = values[position] else {
                throw KeyedArchive.error(
                    at: valueContext, "\(values[position].kindWithArticle), not a UID")
            }
            let key = try decode(keyUID, from: keyContext)
            let value = try decode(valueUID, from: valueContext)
            entries[key.value] = value.value
            size = try add(size, key.size + value.size, valueContext)
        }
        return (.dictionary(entries), size)
    }

    // MARK: - Helpers

    /// A stored scalar as a value: strings, numbers, Booleans, data and dates.
    private static func scalar(_ stored: PropertyListValue) -> ArchivedValue? {
        switch stored {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .real(let number): return .real(number)
        case .bool(let flag): return .bool(flag)
        case .data(let bytes): return .data(bytes)
        case .date(let date): return .date(date)
        case .null: return .null
        default: return nil
        }
    }

    private func add(_ a: Int, _ b: Int, _ context: String) throws -> Int {
        let sum = a + b
        guard sum <= KeyedArchive.maximumValueCount else {
            throw KeyedArchive.error(
                at: context,
                "the objects expand to more than \(KeyedArchive.maximumValueCount) values")
        }
        return sum
    }
}
