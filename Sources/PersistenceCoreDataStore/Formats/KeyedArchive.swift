import Foundation
import PersistenceModel

/// An archive written by `NSKeyedArchiver`: a binary property list holding `$archiver`,
/// `$version`, `$objects` (every object, the first being `$null`) and `$top` (the root
/// objects by key, usually `root`), objects referring to each other by UID.
///
/// Core Data writes transformable attribute values in this form (through
/// `NSSecureUnarchiveFromData`) and its compiled model (Z_MODELCACHE). This decoder is our
/// own rather than `NSKeyedUnarchiver`, which traps on Linux for classes it does not know:
/// Foundation's property-list classes become `ArchivedValue`s, any other class an
/// `ArchivedObject` with its class chain and fields, which the app's transformers decode
/// (`transformedValue(from:)`). A UID out of range, a value of the wrong type, a cycle
/// through property-list classes (an array that contains itself), nesting deeper than
/// `maximumDepth` or more than `maximumValueCount` values is a `CoreDataFormatError` naming
/// the object, its class and the field.
package struct KeyedArchive: Sendable {
    /// The deepest nesting of archived collections the decoder follows.
    package static let maximumDepth = 128
    /// The most values one decoding may produce, counting a shared object once per reference.
    package static let maximumValueCount = 1_000_000

    /// The archiver's name, `NSKeyedArchiver`.
    package let archiverName: String
    /// The archive's objects; references are indexes into this array.
    package let objects: [PropertyListValue]
    /// The top-level objects by key (`root` for Core Data's values and models).
    package let top: [String: UInt64]

    /// Reads an archive's structure from the bytes of a binary property list.
    ///
    /// - Throws: `CoreDataFormatError` when the bytes are not a binary property list or not a
    ///   keyed archive.
    package init(data: Data) throws {
        try self.init(propertyList: try BinaryPropertyList.read(data))
    }

    /// Reads an archive's structure from its property list.
    ///
    /// - Throws: `CoreDataFormatError` when the property list is not a keyed archive.
    package init(propertyList: PropertyListValue) throws {
        guard case .dictionary(let archive) = propertyList else {
            throw Self.error(
                at: "the top level", "\(propertyList.kindWithArticle), not an archive dictionary")
        }
        guard let archiver = archive["$archiver"]?.stringValue else {
            throw Self.error(at: "the top level", "no $archiver name")
        }
        guard let objects = archive["$objects"]?.arrayValue else {
            throw Self.error(at: "the top level", "no $objects array")
        }
        guard let topEntries = archive["$top"]?.dictionaryValue else {
            throw Self.error(at: "the top level", "no $top dictionary")
        }
        var top: [String: UInt64] = [:]
        for (key, value) in topEntries {
            guard let uid = value.uidValue, uid < UInt64(objects.count) else {
                throw Self.error(
                    at: "$top, key \(key)", "not a UID of one of the \(objects.count) objects")
            }
            top[key] = uid
        }
        self.archiverName = archiver
        self.objects = objects
        self.top = top
    }

    // MARK: - Decoding

    /// Decodes the archive at `data` from its `root` object.
    ///
    /// - Throws: `CoreDataFormatError` naming what cannot be decoded.
    package static func decode(_ data: Data) throws -> ArchivedValue {
        try KeyedArchive(data: data).decodeRoot()
    }

    /// The UID of the top-level object named `key` (`root` by default).
    ///
    /// - Throws: `CoreDataFormatError` when `$top` has no such key.
    package func topUID(_ key: String = "root") throws -> UInt64 {
        guard let uid = top[key] else { throw Self.error(at: "$top", "no '\(key)' object") }
        return uid
    }

    /// Decodes the `root` object.
    ///
    /// - Throws: `CoreDataFormatError` naming the object, class and field that cannot be
    ///   decoded.
    package func decodeRoot() throws -> ArchivedValue {
        try decodeValue(at: try topUID())
    }

    /// Decodes the object with this UID: property-list classes in full, other classes as an
    /// `ArchivedObject` whose fields are left as stored.
    ///
    /// - Throws: `CoreDataFormatError` naming the object, class and field that cannot be
    ///   decoded.
    package func decodeValue(at uid: UInt64) throws -> ArchivedValue {
        var session = KeyedArchiveDecoding(archive: self)
        return try session.decode(uid, from: "UID \(uid)").value
    }

    /// Decodes one field of an object: a reference is followed and decoded, an inline
    /// value (a number, a string) is taken as it is; a missing field is `nil`.
    ///
    /// - Throws: `CoreDataFormatError` naming the object, its class and the field.
    package func decodeField(_ key: String, of object: ArchivedObject) throws -> ArchivedValue? {
        guard let field = object.fields[key] else { return nil }
        var session = KeyedArchiveDecoding(archive: self)
        return try session.decodeInline(
            field, from: "object \(object.uid) (\(object.className)), field \(key)"
        ).value
    }

    /// The object with this UID as stored, whatever its class: its class chain and fields.
    ///
    /// - Throws: `CoreDataFormatError` when the UID is out of range or names no object of a
    ///   class (a bare string or number, a class description).
    package func object(at uid: UInt64) throws -> ArchivedObject {
        guard uid < UInt64(objects.count) else {
            throw Self.error(at: "UID \(uid)", "not one of the \(objects.count) objects")
        }
        guard case .dictionary(var fields) = objects[Int(uid)] else {
            throw Self.error(
                at: "object \(uid)",
                "\(objects[Int(uid)].kindWithArticle), not an object of a class")
        }
        let classNames = try classNames(of: fields, uid: uid)
        fields["$class"] = nil
        return ArchivedObject(uid: uid, classNames: classNames, fields: fields)
    }

    /// The class chain an object's `$class` names, most specific first.
    func classNames(of fields: [String: PropertyListValue], uid: UInt64) throws -> [String] {
        let location = "object \(uid)"
        guard let classUID = fields["$class"]?.uidValue else {
            throw Self.error(at: location, "no $class reference")
        }
        guard classUID < UInt64(objects.count),
            case .dictionary(let description) = objects[Int(classUID)]
        else {
            throw Self.error(at: location, "its $class \(classUID) is not a class description")
        }
        guard let name = description["$classname"]?.stringValue else {
            throw Self.error(at: location, "its class description \(classUID) has no $classname")
        }
        var names = [name]
        if case .array(let chain) = description["$classes"] {
            let rest = chain.compactMap(\.stringValue).filter { $0 != name }
            names.append(contentsOf: rest)
        }
        return names
    }

    // MARK: - Transformers

    /// The app value an archived value stands for: a property-list value as its
    /// `foundationValue`; an object of another class decoded by the value transformer
    /// registered (see `ValueTransformers`) under its class name or the first of its
    /// superclasses' names that has one, given the whole archive.
    ///
    /// - Throws: `CoreDataFormatError` when the archive cannot be decoded or no transformer
    ///   is registered for the class; the transformer's error when it refuses the bytes.
    package static func transformedValue(from data: Data) throws -> any Sendable {
        let archive = try KeyedArchive(data: data)
        let value = try archive.decodeRoot()
        guard case .object(let object) = value else {
            // A property-list value (or objects nested in one) in Foundation's types: each
            // part is Sendable, but `foundationValue` returns them as `Any`; checked again
            // here, a dictionary whose keys are neither strings nor integers is refused.
            guard let sendable = SendableProof.sendable(value.foundationValue) else {
                throw Self.error(at: "the root object", "a dictionary whose keys are not strings or integers")
            }
            return sendable
        }
        for name in object.classNames where name != "NSObject" {
            if let transformer = ValueTransformers.transformer(forName: name) {
                return try transformer.reverseTransformedValue(data)
            }
        }
        throw Self.error(
            at: "object \(object.uid) (\(object.className))",
            "no value transformer is registered under the class name \(object.className)")
    }

    static func error(at location: String, _ reason: String) -> CoreDataFormatError {
        CoreDataFormatError(.keyedArchive, at: location, reason)
    }
}
