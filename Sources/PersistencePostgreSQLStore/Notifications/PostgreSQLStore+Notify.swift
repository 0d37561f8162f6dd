#if PostgreSQL
import Foundation

// Change propagation between processes: every save that commits sends a notification on
// the store's channel, so that other processes' coordinators know to look at the store
// again (see `PostgreSQLStore.saveChannel`).

extension PostgreSQLStore {
    /// The channel a save notifies: one per store (its identifier), so that stores in other
    /// schemas of the database are not woken.
    package var saveChannel: String { "persistence_" + identifier }

    /// Queues a notification that the running transaction saved; PostgreSQL delivers it
    /// when (and only if) the transaction commits. The payload names this connection's
    /// backend, so that a listener can tell its own process's saves apart.
    func notifySave() throws {
        try connection.execute("SELECT pg_notify($1, pg_backend_pid()::text)", [.text(saveChannel)])
    }
}
#endif
