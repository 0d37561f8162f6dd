import Foundation
import Persistence

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

    /// How many objects of `entity` are saved, as a fresh read-only container counts them.
    func count(_ entity: String) throws -> Int {
        try open(readOnly: true).viewContext.count(for: FetchRequest(entityName: entity))
    }

    /// The names in the external data folder.
    func externalFiles() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: externalDirectory.path)) ?? [])
    }
}
