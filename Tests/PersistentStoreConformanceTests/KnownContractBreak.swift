/// A way a store is known to break the contract, named for the clause it breaks.
enum KnownContractBreak: Sendable, Hashable {
    /// A to-one without a destination reads as something other than `.toOneFault(nil)`.
    case emptyToOneIsNotAFault
    /// Opening another app's database of the store's kind throws an error that is not a
    /// `PersistentStoreFailure` of kind `.notAStore`.
    case foreignDatabaseIsNotAStoreFailure
}
