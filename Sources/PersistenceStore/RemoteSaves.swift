/// The objects a save of another process changed, as a store that shares its data between
/// processes (a server) tells them: what a coordinator announces to its contexts as a
/// `ContextDidSave`, so that contexts that merge changes automatically merge those too.
package struct RemoteSave: Sendable {
    package var insertedObjectIDs: [ObjectID] = []
    package var updatedObjectIDs: [ObjectID] = []
    package var deletedObjectIDs: [ObjectID] = []

    package init() {}
}

/// A running observation of other processes' saves; `cancel()` stops it and releases what
/// it holds (a connection, a thread).
package protocol RemoteSaveObservation: AnyObject, Sendable {
    func cancel()
}

/// A store whose other processes' saves can be observed as they commit (PostgreSQL's
/// `LISTEN`). The SQLite store is not one: another process's save is found by the next
/// fetch, or through persistent history.
package protocol RemoteSaveSource: PersistentStore {
    /// Starts calling `handler`, on a thread of the observation's own, with each save that
    /// another process (or another coordinator) commits to this store.
    ///
    /// - Throws: the store's failure when it cannot start listening.
    func observeRemoteSaves(_ handler: @escaping @Sendable (RemoteSave) -> Void) throws -> any RemoteSaveObservation
}
