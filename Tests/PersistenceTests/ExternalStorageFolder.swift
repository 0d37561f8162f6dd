import Foundation
@testable import Persistence
import PersistenceSQLite

/// A temporary folder holding one store file and its external data, removed when dropped.
final class ExternalStorageFolder {
    let folder: URL
    let storeURL: URL
    let externalDirectory: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        storeURL = folder.appendingPathComponent("Books.sqlite")
        externalDirectory = URL(
            fileURLWithPath: ExternalDataStore.directory(forStorePath: storeURL.path))
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Opens (or creates) the store with the test model.
    func open(
        readOnly: Bool = false, model: ManagedObjectModel = ExternalStorageTests.model()
    ) throws -> PersistentContainer {
        try PersistentContainer(model: model, storeURL: storeURL, readOnly: readOnly)
    }

    /// The names in the external data folder.
    func externalFiles() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: externalDirectory.path)) ?? [])
    }

    /// The file a book's cover is stored in, read from its row.
    func fileName(title: String) throws -> String {
        let rows = try self.rows("SELECT cover FROM Book WHERE title = '\(title)'")
        guard let text = rows.first?.first?.textValue,
            let reference = ExternalDataStore.Reference(text)
        else {
            throw StoreError.externalData(
                path: storeURL.path, reason: "no external cover for \(title)")
        }
        return reference.fileName
    }

    /// Rows of a raw SQL query, read with a separate connection.
    func rows(_ sql: String) throws -> [[SQLiteValue]] {
        let database = try Database(path: storeURL.path, mode: .readOnly)
        defer { try? database.close() }
        return try database.query(sql)
    }
}
