/// What a new row does when its unique values are already stored (see
/// `StoreTransaction.insert`): how a batch insert follows the context's merge policy.
package enum InsertConflictAction: Sendable {
    /// The write is refused with `UniquenessViolation` (the `.error` merge policy).
    case fail
    /// The stored row takes the new row's values and keeps its key, an upsert (object-trump
    /// and overwrite merging).
    case update
    /// The new row is left unwritten and the stored one stays as it is (store-trump and
    /// rollback merging: the store's state wins).
    case skip
}
