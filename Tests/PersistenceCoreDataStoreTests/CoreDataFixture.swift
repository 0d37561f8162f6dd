import Foundation

/// The store Core Data wrote (Tests/Fixtures/coredata), copied with its `-wal` and `-shm` into
/// a temporary folder of its own, so that a test may write to it; `remove()` deletes the copy.
struct CoreDataFixture {
    /// The folder of the fixture files in this repository.
    static let sourceFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/coredata")

    /// The model that wrote the store: CoreDataPlus's `SampleModel.xcdatamodeld`.
    static let modelURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/models/CoreDataPlus/SampleModel.xcdatamodeld")

    /// The copy's store file.
    let storeURL: URL
    /// The folder holding the copy.
    let folder: URL

    /// Copies `SampleModel_V1.sqlite` and its journal files.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The journal files are copied when the fixture has them (its -wal was checkpointed).
        for suffix in ["", "-wal", "-shm"] {
            let name = "SampleModel_V1.sqlite" + suffix
            guard FileManager.default.fileExists(atPath: Self.sourceFolder.appendingPathComponent(name).path) else { continue }
            try FileManager.default.copyItem(
                at: Self.sourceFolder.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        storeURL = folder.appendingPathComponent("SampleModel_V1.sqlite")
    }

    /// Deletes the copy.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
