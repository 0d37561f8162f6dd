import Foundation
import PersistenceSQLite

/// The binary values of the store Core Data wrote (Tests/Fixtures/coredata): its Z_METADATA
/// property list and its Z_MODELCACHE, read from a copy of the store opened read-only.
enum FormatsFixture {
    /// Z_METADATA.Z_PLIST: the store's metadata as a binary property list.
    static let metadata: Data = readBlob("SELECT Z_PLIST FROM Z_METADATA")
    /// Z_MODELCACHE.Z_CONTENT: the compiled model, DEFLATE-compressed.
    static let modelCache: Data = readBlob("SELECT Z_CONTENT FROM Z_MODELCACHE")

    private static func readBlob(_ sql: String) -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "coredata-formats-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for suffix in ["", "-wal", "-shm"] {
                let source = CoreDataFixture.sourceFolder.appendingPathComponent(
                    "SampleModel_V1.sqlite" + suffix)
                guard FileManager.default.fileExists(atPath: source.path) else { continue }
                try FileManager.default.copyItem(
                    at: source, to: folder.appendingPathComponent("SampleModel_V1.sqlite" + suffix))
            }
            let database = try Database(
                path: folder.appendingPathComponent("SampleModel_V1.sqlite").path, mode: .readOnly)
            defer { try? database.close() }
            return try database.scalar(sql).dataValue ?? Data()
        } catch {
            return Data()
        }
    }
}
