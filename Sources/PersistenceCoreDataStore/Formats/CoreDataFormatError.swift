/// A binary property list, keyed archive, DEFLATE stream or compiled model that cannot be
/// read: which format, where in it, and what is wrong, in one line.
///
/// Every reader in this folder throws this error for any input it cannot use — truncated,
/// out of range, cyclic, too deep, too large or of the wrong type — and never crashes or
/// loops on hostile bytes.
public struct CoreDataFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The formats Core Data writes inside its stores.
    public enum Format: String, Sendable, Hashable {
        /// Apple's binary property list, `bplist00` (Z_METADATA, keyed archives).
        case binaryPropertyList = "binary property list"
        /// `NSKeyedArchiver`'s `$archiver`/`$objects`/`$top` archive (transformable values,
        /// the compiled model).
        case keyedArchive = "keyed archive"
        /// A raw DEFLATE stream (Z_MODELCACHE).
        case deflate = "DEFLATE stream"
        /// An archived `NSManagedObjectModel` (Z_MODELCACHE, once inflated).
        case compiledModel = "compiled model"
    }

    /// The format being read.
    public var format: Format
    /// Where the problem is: an offset, an object number, a class and field.
    public var location: String
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(_ format: Format, at location: String, _ reason: String) {
        self.format = format
        self.location = location
        self.reason = reason
    }

    /// One line: `Invalid keyed archive at object 12 (NSArray): …`.
    public var description: String {
        let text =
            "Invalid \(format.rawValue)" + (location.isEmpty ? "" : " at \(location)")
            + ": \(reason)"
        return text.replacingOccurrences(of: "\n", with: " ")
    }
}
