import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension StoreMigrator {
    /// The folder that holds the external-data files of `<store>.pre-migration`, beside it
    /// as any store's (`.Books.sqlite.pre-migration_SUPPORT`, see `ExternalDataStore`).
    static func backupSupportFolder(for storeURL: URL) -> URL {
        URL(fileURLWithPath: ExternalDataStore.directory(forStorePath: backupURL(for: storeURL).path))
            .deletingLastPathComponent()
    }

    /// Gives the copy made before migrating its own external-data files: a hard link to
    /// each of the store's (a copy where the file system refuses links), so that the copy
    /// still reads every value after the migrated store's next open sweeps the files its
    /// rows no longer reference (a removed attribute's, a re-encoded value's old file). An
    /// older copy's folder is replaced; a store without files gets none.
    ///
    /// - Throws: `MigrationError` (`.backupFailed`) when a file cannot be linked or copied.
    static func backUpExternalData(of storeURL: URL) throws {
        let fileManager = FileManager.default
        let support = backupSupportFolder(for: storeURL)
        try? fileManager.removeItem(at: support)
        let source = ExternalDataStore.directory(forStorePath: storeURL.path)
        guard let names = try? fileManager.contentsOfDirectory(atPath: source), !names.isEmpty else { return }
        let destination = ExternalDataStore.directory(forStorePath: backupURL(for: storeURL).path)
        do {
            try fileManager.createDirectory(atPath: destination, withIntermediateDirectories: true)
            for name in names where !name.hasSuffix(".tmp") {
                let from = source + "/" + name, to = destination + "/" + name
                if link(from, to) != 0 { try fileManager.copyItem(atPath: from, toPath: to) }
            }
        } catch {
            try? fileManager.removeItem(at: support)
            throw MigrationError(
                .backupFailed,
                reason: "the external data files could not be copied to \(destination) (\(error.localizedDescription))",
                path: storeURL.path)
        }
    }

    /// Removes the copy made before migrating and its files, after a migration that failed.
    static func removeBackup(of storeURL: URL) {
        try? FileManager.default.removeItem(at: backupURL(for: storeURL))
        try? FileManager.default.removeItem(at: backupSupportFolder(for: storeURL))
    }
}
