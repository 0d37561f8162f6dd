/// What a fetch request's result is made of (Core Data's `NSFetchRequestResultType`).
///
/// Each kind has its own entry point on the context, typed for it: `fetch(_:)` for objects,
/// `fetchObjectIDs(_:)` for IDs, `fetchDictionaries(_:properties:)` for dictionaries and
/// `count(for:)` for a count. `ManagedObjectContext.execute(_:)` runs a request whatever
/// its `resultType`, as Core Data's untyped fetch does.
public enum FetchRequestResultType: Sendable, Hashable {
    /// Managed objects (the default).
    case managedObjectResultType
    /// The objects' IDs: only keys are read, no object is made.
    case managedObjectIDResultType
    /// A dictionary per object of the values of `propertiesToFetch`: only those columns are
    /// read, no object is made.
    case dictionaryResultType
    /// The number of objects, in a one-element result: no row is read, no object is made.
    case countResultType
}
