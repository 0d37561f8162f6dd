/// What a seed did: the books it was given and how many of them it added.
///
/// A seed adds the books the catalogue lacks and leaves every book already there as it is
/// (see ``Catalog/seed(file:syntheticCount:batchSize:transactionTimeLimit:shouldStop:progress:)``),
/// so `given - added` books were there before.
public struct SeedSummary: Sendable, Equatable {
    /// The seed file's entries plus the synthetic books asked for.
    public var given: Int
    /// The books the seed added: those whose UUID the catalogue did not hold.
    public var added: Int

    /// Creates a summary.
    public init(given: Int, added: Int) {
        self.given = given
        self.added = added
    }

    /// The books given that the catalogue already held, left as they were.
    public var alreadyThere: Int { given - added }
}
