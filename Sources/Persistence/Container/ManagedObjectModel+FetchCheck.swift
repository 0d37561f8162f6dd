import PersistenceModel
import PersistenceStore
import PersistenceContext
import PersistenceSQLiteStore
extension ManagedObjectModel {
    /// Checks, without a store, that `request` could run against a store of this model:
    /// its entity, the keys its predicate, search and sort name, and the types its
    /// predicate compares.
    ///
    /// A command that takes a predicate from its user can so refuse a bad one before it
    /// opens (or creates) a store: a command that fails writes nothing. The check compiles
    /// the request as a fetch would, so it refuses what a fetch refuses, with the same
    /// error.
    ///
    /// The model is frozen first, as opening a store freezes it.
    ///
    /// - Throws: `FetchError` for an unknown entity or key, a transient key, a type
    ///   mismatch, or a search the store could not run (such as too many words);
    ///   `ModelError` when the model itself is not valid.
    public func checkFetchRequest(_ request: FetchRequest) throws {
        try freeze()
        var compiler = try FetchCompiler(schema: StoreSchema(model: self), entityName: request.entityName)
        _ = try compiler.query(for: request)
    }
}
