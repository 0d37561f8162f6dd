import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteFiles

extension SQLiteStore {
    /// Before the first write of this connection, and under its write lock, checks the
    /// whole file with SQLite's [`PRAGMA quick_check`](https://sqlite.org/pragma.html#pragma_quick_check):
    /// every page, cell and b-tree (but not whether indexes match their tables, which
    /// `StoreCheck` does).
    ///
    /// SQLite checks only the pages a statement reads, so an insert can succeed on a file
    /// with a damaged page elsewhere, which every later read of that table then refuses:
    /// writing more to such a file buries the damage under new commits. Like `git`, which
    /// refuses to commit onto a corrupt object store, a store refuses to write to a file
    /// it knows is damaged; `books check` / `persistence-tool store check` say what is
    /// wrong. The check reads every page once per connection, so reading commands never pay
    /// it and a long-lived writer pays it once; `Options.verifiesBeforeWriting` turns it off.
    /// A write runs it beside itself (`verifyingBeside`).
    ///
    /// - Throws: `SQLiteError` (`SQLITE_CORRUPT`) naming the file and SQLite's first
    ///   finding; the caller's transaction then rolls back with nothing written.
    func verifyBeforeWriting() throws {
        guard !isVerifiedForWriting else { return }
        try settle(Self.quickCheck(database))
    }

    /// Runs `body`, the first write of this connection, while `verifyBeforeWriting`'s check
    /// runs beside it, on a reading connection and a thread of its own; call it inside the
    /// write transaction. The check's finding wins over whatever `body` returns or throws,
    /// so that the transaction rolls back, with nothing written, on a damaged file.
    ///
    /// Why beside, not before: the check reads every page, and the write's own work does
    /// not depend on it. Under the write lock no one else commits, so the reader's snapshot
    /// is exactly the file this transaction writes onto (its own changes stay invisible to
    /// other connections until it commits). A store without a file, or a reader that cannot
    /// be opened, is checked here first instead.
    func verifyingBeside<T>(_ body: () throws -> T) throws -> T {
        guard !isVerifiedForWriting else { return try body() }
        guard let path, let check = try? BackgroundCheck(path: path, busyTimeout: busyTimeout) else {
            try verifyBeforeWriting()
            return try body()
        }
        let result = Result { try body() }
        switch check.findings() {
        case .success(let findings): try settle(findings)
        case .failure: try verifyBeforeWriting()
        }
        return try result.get()
    }

    /// Marks the connection verified when `findings` are SQLite's "ok".
    ///
    /// - Throws: `SQLiteError` (`SQLITE_CORRUPT`) naming the file and the first finding.
    private func settle(_ findings: [String]) throws {
        guard findings == ["ok"] else {
            throw SQLiteError(
                extendedCode: SQLiteResultCode.corrupt,
                message: "the store is damaged (\(StoreCheck.findings(findings).first ?? "quick_check failed")); "
                    + "nothing was written",
                path: path)
        }
        isVerifiedForWriting = true
    }

    fileprivate static func quickCheck(_ database: Database) throws -> [String] {
        try database.query("PRAGMA quick_check(1)").compactMap { $0.first?.textValue }
    }
}

/// `PRAGMA quick_check` of a store file on a reading connection and a thread of their own
/// (see `SQLiteStore.verifyingBeside(_:)`).
///
/// `@unchecked Sendable`, argued: the check's closure must take `self` to another thread,
/// and `database` (a connection, not Sendable) goes with it. Sound because each part has one
/// user at a time: `database` is opened in `init` and, once the closure is queued, used by the
/// check's thread alone (`init` returns without touching it again); `result` is written by
/// that thread before it signals `done`, and read by `findings()` only after waiting on
/// `done`, which orders the write before the read. `findings()` is called once, by the
/// verification that made the check. `ConcurrencyStressTests` runs checks beside saves, under
/// ThreadSanitizer and AddressSanitizer in CI.
private final class BackgroundCheck: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Used by the check's thread alone once it has started.
    private let database: Database
    /// Written by the check's thread before it signals `done`, read only after.
    private var result: Result<[String], any Error> = .success([])

    /// Opens the reading connection here (so that a file that cannot be opened fails at
    /// once) and starts the check.
    init(path: String, busyTimeout: Double) throws {
        database = try StoreFile.openForReading(path, busyTimeout: busyTimeout)
        DispatchQueue.global(qos: .userInitiated).async {
            self.result = Result { try SQLiteStore.quickCheck(self.database) }
            try? self.database.close()
            self.done.signal()
        }
    }

    /// The check's findings, once it has finished.
    func findings() -> Result<[String], any Error> {
        done.wait()
        return result
    }
}
