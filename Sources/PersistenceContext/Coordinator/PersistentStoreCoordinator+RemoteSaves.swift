import Foundation
import PersistenceStore
import Synchronization

/// Saves of other processes, for a store that tells them (`RemoteSaveSource`): once a
/// context of the coordinator merges changes automatically, the coordinator listens, and
/// announces each such save to its contexts as a `ContextDidSave` from no context of its
/// own, so that `automaticallyMergesChangesFromParent` covers every machine sharing the
/// store, as it covers the coordinator's own contexts.
final class RemoteSaveListening: Sendable {
    private let observation = Mutex<(any RemoteSaveObservation)?>(nil)
    private let started = Mutex(false)

    /// Starts listening once: later calls do nothing. A store that cannot listen (an SQLite
    /// file, or a server that refuses the connection now) leaves merging to this process's
    /// saves.
    func start(store: any PersistentStore, announcer: SaveAnnouncer) {
        guard let source = store as? any RemoteSaveSource else { return }
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let running = try? source.observeRemoteSaves { remote in
            announcer.announce(
                ContextDidSave(
                    insertedObjectIDs: Set(remote.insertedObjectIDs), updatedObjectIDs: Set(remote.updatedObjectIDs),
                    deletedObjectIDs: Set(remote.deletedObjectIDs), contextName: nil, origin: nil))
        }
        observation.withLock { $0 = running }
    }

    /// Stops listening.
    func stop() {
        let running = observation.withLock { current in
            defer { current = nil }
            return current
        }
        running?.cancel()
    }
}
