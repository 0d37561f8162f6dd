/// A way a store is known to break the contract, named for the clause it breaks.
enum KnownContractBreak: Sendable, Hashable {
    /// A to-one without a destination reads as something other than `.toOneFault(nil)`.
    case emptyToOneIsNotAFault
}
