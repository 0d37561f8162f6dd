/// Hands out a block of keys after a store's recorded key counter (Core Data's
/// `Z_PRIMARYKEY.Z_MAX`, the SQLite store's `_primarykey.lastKey`) with checked
/// arithmetic, so that a counter at its limit or a counter edited by hand fails the save
/// with a sentence instead of trapping the process.
package enum KeyCounter {
    /// The first and last of `count` new keys after `last`, the counter's value.
    ///
    /// - Parameter entity: the entity (hierarchy root) whose counter it is, for the error.
    /// - Throws: `KeyCounterError` when `last` is negative or the keys would pass
    ///   `Int64.max`.
    package static func keys(after last: Int64, count: Int, entity: String) throws -> (first: Int64, last: Int64) {
        guard last >= 0 else { throw KeyCounterError(entity: entity, counter: last, isExhausted: false) }
        let exhausted = KeyCounterError(entity: entity, counter: last, isExhausted: true)
        let (first, overflow) = last.addingReportingOverflow(1)
        guard !overflow, count >= 0, let block = Int64(exactly: count) else { throw exhausted }
        let (end, overflowed) = last.addingReportingOverflow(block)
        guard !overflowed else { throw exhausted }
        return (first, end)
    }
}

/// A store's key counter that cannot give out another key: it is at `Int64.max`, or holds
/// a value no counter can (a negative one), as only editing the file by hand leaves it.
/// Nothing is written.
public struct KeyCounterError: Error, Sendable, CustomStringConvertible {
    /// The entity (hierarchy root) whose counter it is.
    public let entity: String
    /// The counter's value.
    public let counter: Int64
    /// Whether the counter is at its limit (else it holds an impossible value).
    public let isExhausted: Bool

    /// The error for the counter of `entity`, at `counter`.
    package init(entity: String, counter: Int64, isExhausted: Bool) {
        self.entity = entity
        self.counter = counter
        self.isExhausted = isExhausted
    }

    /// A sentence naming the entity and the counter.
    public var description: String {
        isExhausted
            ? "the store's key counter for entity \(entity) is exhausted (it is at \(counter)); "
                + "no new \(entity) can be saved, nothing was written"
            : "the store's key counter for entity \(entity) holds \(counter), which is not a key; "
                + "the store was edited by hand, nothing was written"
    }
}
