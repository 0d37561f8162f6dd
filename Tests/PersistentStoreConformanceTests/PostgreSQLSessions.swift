#if PostgreSQL
import Foundation
import PersistencePostgreSQLStore
import Testing

/// The server sessions of one application name (a test's stores), watched and ended from a
/// connection of their own, as an operator would with `pg_stat_activity`.
///
/// Each query runs in a transaction of its own: within one, `pg_stat_activity` is a snapshot.
final class PostgreSQLSessions {
    let applicationName: String
    private let watcher: PGConnection

    init(conninfo: String, applicationName: String) throws {
        self.applicationName = applicationName
        watcher = try PGConnection(conninfo: conninfo)
    }

    deinit { watcher.close() }

    /// The sessions' server processes.
    func pids() throws -> Set<String> {
        Set(try watcher.query(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1", [.text(applicationName)]
        ).compactMap { $0[0] })
    }

    /// The sessions waiting for a lock another session holds.
    func waitingForALock() throws -> Set<String> {
        Set(try watcher.query(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
            [.text(applicationName)]
        ).compactMap { $0[0] })
    }

    /// The sessions waiting for a lock that the server process `holder` holds, in a statement
    /// that locks or changes rows (a save's), not in anything else that might wait for it.
    func waitingForRowLocks(heldBy holder: String) throws -> Set<String> {
        Set(try watcher.query(
            """
            SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'
              AND $2::integer = ANY(pg_blocking_pids(pid)) AND (query ILIKE '%FOR UPDATE%' OR query ILIKE 'UPDATE %')
            """,
            [.text(applicationName), .text(holder)]
        ).compactMap { $0[0] })
    }

    /// The sessions waiting for the event `event` (`pg_stat_activity.wait_event`).
    func waiting(for event: String) throws -> Set<String> {
        Set(try watcher.query(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event = $2",
            [.text(applicationName), .text(event)]
        ).compactMap { $0[0] })
    }

    /// Ends the sessions `pids` (every one when nil), as a restart or an operator would, and
    /// waits until their processes have exited.
    @discardableResult
    func terminate(_ pids: Set<String>? = nil) throws -> Set<String> {
        let ended = try pids ?? self.pids()
        for pid in ended {
            try watcher.execute("SELECT pg_terminate_backend($1::int, 20000)", [.text(pid)])
        }
        return ended
    }

    /// Polls until `condition` holds, failing the test after `seconds` (generous: the
    /// machine may be loaded).
    static func wait(until what: String, seconds: Double = 30, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { throw WaitedTooLong(what: what) }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// A fresh `application_name` for a test's sessions.
    static func uniqueName() -> String {
        "persistence_test_" + UUID().uuidString.prefix(8).lowercased()
    }
}

/// A state a test waited for did not come.
struct WaitedTooLong: Error, CustomStringConvertible {
    let what: String
    var description: String { "waited too long for \(what)" }
}

/// Work on a thread of its own (a save that will block on a lock), whose outcome the test
/// waits for.
final class BackgroundWork<Value>: @unchecked Sendable {
    // @unchecked Sendable: `result` is written once, under `lock`, before `done` is signalled.
    private let lock = NSLock()
    private var result: Result<Value, any Error>?
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let outcome = Result { try work() }
            lock.withLock { result = outcome }
            done.signal()
        }
        thread.start()
    }

    /// Whether it has finished.
    var isFinished: Bool { lock.withLock { result != nil } }

    /// Its outcome, waiting up to `seconds` for it; nil if it has not finished by then.
    func outcome(within seconds: Double = 30) -> Result<Value, any Error>? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { result }
    }
}
#endif
