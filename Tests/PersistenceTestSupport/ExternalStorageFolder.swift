import Foundation
import Persistence
import PersistenceModel

/// A temporary folder holding one store file and its external data, removed when dropped.
package final class ExternalStorageFolder {
    package let folder: URL
    package let storeURL: URL
    package let externalDirectory: URL

    package init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        storeURL = folder.appendingPathComponent("Books.sqlite")
        externalDirectory = URL(
            fileURLWithPath: ExternalDataStore.directory(forStorePath: storeURL.path))
    }

    package static let threshold = ExternalDataStore.defaultThreshold

    /// `Book.cover` allows external storage; `Book.thumbnail` does not; `Book.extra` is a
    /// transformable that does.
    package static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Book") {
                Attribute("title", .string, optional: false, maximum: "40")
                Attribute("isbn", .string)
                Attribute("cover", .binaryData, allowsExternalStorage: true)
                Attribute("thumbnail", .binaryData)
                Attribute("extra", .transformable, allowsExternalStorage: true)
                UniquenessConstraint("isbn")
            }
        }
    }

    /// Deterministic bytes that differ by `seed`, so a file mix-up shows.
    package static func bytes(_ count: Int, seed: UInt64 = 1) -> Data {
        var generator = SplitMix64(seed: seed)
        var words = (0..<(count + 7) / 8).map { _ in generator.next() }
        return words.withUnsafeMutableBytes { Data($0.prefix(count)) }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Opens (or creates) the store with the test model.
    package func open(
        readOnly: Bool = false, model: ManagedObjectModel = ExternalStorageFolder.model()
    ) throws -> PersistentContainer {
        try PersistentContainer(model: model, storeURL: storeURL, readOnly: readOnly)
    }

    /// How many objects of `entity` are saved, as a fresh read-only container counts them.
    package func count(_ entity: String) throws -> Int {
        try open(readOnly: true).viewContext.count(for: FetchRequest(entityName: entity))
    }

    /// The names in the external data folder.
    package func externalFiles() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: externalDirectory.path)) ?? [])
    }
}
