import PersistenceModel
import PersistenceStore
/// Archive JSON that cannot be imported, or an object ID that names no object: where the
/// problem is and what it is.
///
/// `location` is a JSON path into the document (`$.Car[0].owner`), a line and column for
/// JSON that does not parse, or the object ID given to a delete. The description reads as
/// one sentence:
/// `$.Car[0].owner (@id "c1"): no object in the document has @id "p9"`.
public struct StoreArchiveError: Error, Sendable, CustomStringConvertible {
    /// Where: a JSON path, "line L, column C", or an object ID.
    public var location: String
    /// The object's `@id` in the document, when it has one.
    public var localID: String?
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(location: String, localID: String? = nil, reason: String) {
        self.location = location
        self.localID = localID
        self.reason = reason
    }

    /// "$.Car[0].owner (@id "c1"): no object in the document has @id "p9"".
    public var description: String {
        // Both may be whatever a file or a command line held: quoted in part when long.
        let id = localID.map { local in
            let shown = String(local.prefix(QuotedText.excerptLength))
            return " (@id \(QuotedText.doubleQuoted(shown))\(shown.count < local.count ? "…" : ""))"
        } ?? ""
        return "\(QuotedText.excerpt(location))\(id): \(reason)"
    }
}
