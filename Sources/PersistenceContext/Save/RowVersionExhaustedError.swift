/// A save that would update a row whose version (Core Data's `Z_OPT`, the own layout's
/// `_opt`) is already the largest integer a version can be: only an edit by hand leaves it
/// there. The save writes nothing.
public struct RowVersionExhaustedError: Error, Sendable, CustomStringConvertible {
    /// The object whose row it is, as `Book/p3`.
    public let object: String

    /// A sentence naming the row.
    public var description: String {
        "the row version of \(object) is exhausted (it is at \(Int64.max)); the object can't be "
            + "saved again, nothing was written"
    }
}
