import Foundation
import PersistenceSQLite

/// The stores Apple's Core Data wrote, gathered from other projects (Tests/Fixtures/
/// CoreDataStores, see its README): every `.sqlite` there, so that a store dropped in is
/// tested too. A store's model files, where its project has them, are in the folder of the
/// store's name without `.sqlite`.
enum CoreDataCorpus {
    /// The folder of the corpus in this repository.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/CoreDataStores")

    /// The file names of the corpus's stores, sorted.
    static var storeNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".sqlite") }.sorted()
    }

    /// The `.xcdatamodeld` bundles beside the store `name`, if its project has one.
    static func modelBundles(for name: String) -> [URL] {
        let beside = folder.appendingPathComponent(String(name.dropLast(".sqlite".count)))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: beside.path)) ?? []
        return names.filter { $0.hasSuffix(".xcdatamodeld") }.sorted().map { beside.appendingPathComponent($0) }
    }

    /// A copy of the store `name` (and its journal files, if any) in a folder of its own.
    struct Copy {
        let folder: URL
        let storeURL: URL

        init(_ name: String) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for suffix in ["", "-wal", "-shm"] {
                let source = CoreDataCorpus.folder.appendingPathComponent(name + suffix)
                guard FileManager.default.fileExists(atPath: source.path) else { continue }
                try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(name + suffix))
            }
            storeURL = folder.appendingPathComponent(name)
        }

        /// The bytes of the store file and its journals, to tell that a refusal left them.
        func snapshot() -> [Data?] {
            ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: storeURL.path + $0)) }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// The rows of `query` on the store at `url`, through plain SQL.
    static func sql(_ url: URL, _ query: String) throws -> [[SQLiteValue]] {
        let database = try Database(path: url.path, mode: .readOnly)
        defer { try? database.close() }
        return try database.query(query)
    }

    /// The columns and values of one row of `query`.
    static func row(_ url: URL, table: String, primaryKey: Int64) throws -> [String: SQLiteValue] {
        let database = try Database(path: url.path, mode: .readOnly)
        defer { try? database.close() }
        let columns = try database.query("SELECT name FROM pragma_table_info('\(table)')").compactMap { $0.first?.stringValue }
        let values = try database.query("SELECT * FROM \(table) WHERE Z_PK = \(primaryKey)").first ?? []
        return Dictionary(uniqueKeysWithValues: zip(columns, values).map { ($0, $1) })
    }
}
