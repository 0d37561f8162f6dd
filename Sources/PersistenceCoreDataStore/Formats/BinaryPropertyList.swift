import Foundation

/// Apple's binary property list format, `bplist00`: read into `PropertyListValue` and
/// written back.
///
/// Core Data keeps a store's metadata (Z_METADATA) in this format, and `NSKeyedArchiver`
/// writes its archives in it (transformable values, the compiled model in Z_MODELCACHE).
/// The reader is our own rather than `PropertyListSerialization`, so that it can be trusted
/// with any bytes: every offset, object reference and count is checked against the file,
/// a cycle (an array that contains itself) or nesting deeper than `maximumDepth` is an
/// error, and so is a file whose shared objects would expand to more than
/// `maximumValueCount` values. Each error is a `CoreDataFormatError` naming the object and
/// its offset.
///
/// The layout: the 8-byte header `bplist00`; the objects, each a marker byte (type in the
/// high nibble, size or count in the low one) and its bytes; an offset table giving each
/// object's offset; and a 32-byte trailer with the sizes of offsets and object references,
/// the object count, the top object and the offset table's offset.
package enum BinaryPropertyList {
    /// The deepest nesting of arrays, sets and dictionaries the reader accepts.
    package static let maximumDepth = 128
    /// The most values a file may expand to, counting a shared object once per reference:
    /// bounds the work of reading a file made of objects that refer to each other many
    /// times over.
    package static let maximumValueCount = 4_000_000

    /// Whether `data` starts with the binary property list header, `bplist00`.
    package static func isBinaryPropertyList(_ data: Data) -> Bool {
        data.count >= 8 && data.prefix(8).elementsEqual("bplist00".utf8)
    }

    /// Reads the top object of a binary property list.
    ///
    /// - Throws: `CoreDataFormatError` (format `.binaryPropertyList`) naming what is wrong
    ///   and where.
    package static func read(_ data: Data) throws -> PropertyListValue {
        var reader = try BinaryPropertyListReader(bytes: [UInt8](data))
        return try reader.readTopObject()
    }

    /// Writes `value` as a binary property list, as `PropertyListSerialization` would:
    /// equal strings, numbers and data stored once, dictionary keys in sorted order,
    /// integers in their smallest size.
    package static func write(_ value: PropertyListValue) -> Data {
        var writer = BinaryPropertyListWriter()
        return writer.write(value)
    }
}
