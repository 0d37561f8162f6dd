import Foundation
import PersistenceModel
import PersistenceSQLite

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
    /// wrong. The check reads every page once per connection (about a tenth of a second
    /// for 100,000 books), so reading commands never pay it and a long-lived writer pays it
    /// once; `Options.verifiesBeforeWriting` turns it off.
    ///
    /// - Throws: `SQLiteError` (`SQLITE_CORRUPT`) naming the file and SQLite's first
    ///   finding; the caller's transaction then rolls back with nothing written.
    func verifyBeforeWriting() throws {
        guard !isVerifiedForWriting else { return }
        let findings = try database.query("PRAGMA quick_check(1)").compactMap { $0.first?.textValue }
        guard findings == ["ok"] else {
            throw SQLiteError(
                extendedCode: SQLiteResultCode.corrupt,
                message: "the store is damaged (\(StoreCheck.findings(findings).first ?? "quick_check failed")); "
                    + "nothing was written",
                path: path)
        }
        isVerifiedForWriting = true
    }
}
