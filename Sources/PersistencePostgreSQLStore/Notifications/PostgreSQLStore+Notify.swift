#if PostgreSQL
import Foundation
import Synchronization
import PersistenceStore

// Change propagation between processes: a save that commits sends, on the store's channel,
// the objects it inserted, updated and deleted (`NOTIFY`, delivered by PostgreSQL at the
// commit and only then); coordinators of other processes `LISTEN` (see `PGSaveListener`)
// and announce them to their contexts.
//
// A payload is lines: the sending store's session token, then `I`, `U` or `D`, an entity,
// its root entity and keys (`U Book Book 3 7 12`). PostgreSQL limits a payload to 8000
// bytes: a larger save sends several.

extension PostgreSQLStore {
    /// The channel a save notifies: one per store (its identifier), so that stores in other
    /// schemas of the database are not woken.
    package var saveChannel: String { "persistence_" + identifier.lowercased() }

    /// Queues the notifications of the running transaction's changes.
    func notifySave(_ changes: PGHistoryRecorder) throws {
        guard !changes.changes.isEmpty else { return }
        var lines: [String] = []
        var current: (type: PersistentHistoryChange.ChangeType, entity: String, keys: [Int64])?
        func close() {
            guard let current else { return }
            let letter = current.type == .insert ? "I" : current.type == .update ? "U" : "D"
            let root = model.schema(for: current.entity)?.rootName ?? current.entity
            lines.append("\(letter) \(current.entity) \(root) " + current.keys.map(String.init).joined(separator: " "))
        }
        for change in changes.changes {
            if let open = current, open.type == change.type, open.entity == change.entity, open.keys.count < 500 {
                current?.keys.append(change.key)
            } else {
                close()
                current = (change.type, change.entity, [change.key])
            }
        }
        close()
        var payload = sessionToken
        for line in lines {
            if payload.utf8.count + line.utf8.count + 1 > 7_000 {
                try connection.execute("SELECT pg_notify($1, $2)", [.text(saveChannel), .text(payload)])
                payload = sessionToken
            }
            payload += "\n" + line
        }
        try connection.execute("SELECT pg_notify($1, $2)", [.text(saveChannel), .text(payload)])
    }

    /// The saves in a payload, with the token of the store that sent them.
    static func remoteSave(from payload: String, storeIdentifier: String) -> (token: String, save: RemoteSave) {
        var lines = payload.split(separator: "\n").map(String.init)
        let token = lines.isEmpty ? "" : lines.removeFirst()
        var save = RemoteSave()
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 4 else { continue }
            let scope = ObjectID.Scope(entityName: fields[1], rootName: fields[2], storeIdentifier: storeIdentifier)
            let ids = fields.dropFirst(3).compactMap(Int64.init).map { ObjectID(scope: scope, key: .permanent($0)) }
            switch fields[0] {
            case "I": save.insertedObjectIDs += ids
            case "U": save.updatedObjectIDs += ids
            case "D": save.deletedObjectIDs += ids
            default: continue
            }
        }
        return (token, save)
    }
}

extension PostgreSQLStore: RemoteSaveSource {
    package func observeRemoteSaves(_ handler: @escaping @Sendable (RemoteSave) -> Void) throws -> any RemoteSaveObservation {
        let listener = try PGSaveListener(
            conninfo: conninfo, channel: saveChannel, ownToken: sessionToken, storeIdentifier: identifier, handler: handler)
        listener.start()
        return listener
    }
}

/// A connection that `LISTEN`s on a store's channel, on a thread of its own, and hands each
/// save another store sent to its handler. After the server drops it, it connects again
/// and goes on listening (saves committed in between are not told: the next fetch finds
/// them).
///
/// `@unchecked Sendable`, argued: `RemoteSaveObservation` is Sendable (the coordinator
/// cancels it from any thread), and `connection` (libpq's, not Sendable) is mutable. Sound
/// because `connection` has one user at a time: `init` opens it before `start()`, and from
/// `start()` on only the listening thread reads or replaces it (`Thread.start` orders `init`'s
/// write before the thread's first read); `thread` is written once, in `start()`, by the
/// thread that made the listener, and never read; `cancel()`, the one method another thread
/// calls, only sets `stopped`, an `Atomic`. The rest is `let` and Sendable. Runs only behind
/// the PostgreSQL trait, against a server: the PostgreSQL CI job's conformance suite covers it.
final class PGSaveListener: RemoteSaveObservation, @unchecked Sendable {
    private var connection: PGConnection?
    private let conninfo: String
    private let channel: String
    private let ownToken: String
    private let storeIdentifier: String
    private let handler: @Sendable (RemoteSave) -> Void
    private let stopped = AtomicFlag()
    private var thread: Thread?

    init(
        conninfo: String, channel: String, ownToken: String, storeIdentifier: String,
        handler: @escaping @Sendable (RemoteSave) -> Void
    ) throws {
        self.conninfo = conninfo
        self.channel = channel
        self.ownToken = ownToken
        self.storeIdentifier = storeIdentifier
        self.handler = handler
        connection = try Self.listen(conninfo: conninfo, channel: channel)
    }

    private static func listen(conninfo: String, channel: String) throws -> PGConnection {
        let connection = try PGConnection(conninfo: conninfo, statementTimeout: 0)
        try connection.execute("LISTEN \(pgIdentifier(channel))")
        return connection
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "PostgreSQL store listener"
        self.thread = thread
        thread.start()
    }

    func cancel() { stopped.set() }

    private func run() {
        while !stopped.isSet {
            guard let connection, connection.isConnected else {
                // Dropped: wait a little, then listen again.
                Thread.sleep(forTimeInterval: 0.5)
                connection?.close()
                connection = try? Self.listen(conninfo: conninfo, channel: channel)
                continue
            }
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 200)
            for notification in connection.notifications() where notification.channel == channel {
                let (token, save) = PostgreSQLStore.remoteSave(from: notification.payload, storeIdentifier: storeIdentifier)
                if token != ownToken { handler(save) }
            }
        }
        connection?.close()
        connection = nil
    }
}

/// A flag set once, read from any thread.
final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
#endif
