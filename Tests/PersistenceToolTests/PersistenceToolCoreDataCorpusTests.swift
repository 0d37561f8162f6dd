import Foundation
import PersistenceTestSupport
import PersistenceSQLite
import Testing

/// `persistence-tool store export` on every store of the corpus Apple's Core Data wrote
/// (Tests/Fixtures/CoreDataStores), without `--model`: each prints one object per row of its
/// entity, or, for a store that keeps no compiled model, is refused in one line with the
/// file as it was. Run as the built binary on copies.
@Suite struct PersistenceToolCoreDataCorpusTests {
    /// The corpus folder.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/CoreDataStores")

    static var storeNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".sqlite") }.sorted()
    }

    @Test(arguments: storeNames)
    func exportPrintsEveryRowOfEveryEntityWithoutAModelFile(name: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Self.folder.appendingPathComponent(name), to: store)
        let before = try Data(contentsOf: store)
        let database = try Database(path: store.path, mode: .readOnly)
        let hasCache = try !database.query("SELECT name FROM sqlite_master WHERE name = 'Z_MODELCACHE'").isEmpty
        // Rows per entity number, and the entities' numbers by their stored names.
        var rows: [Int64: Int] = [:]
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z[A-Z]*'")
            .compactMap { $0.first?.stringValue }
        for table in tables where !table.hasPrefix("Z_") {
            for row in try database.query("SELECT Z_ENT, count(*) FROM \(table) GROUP BY Z_ENT") {
                rows[row[0].int64Value ?? 0, default: 0] += Int(row[1].int64Value ?? 0)
            }
        }
        try database.close()

        let run = try ToolRun(["store", "export", store.path])
        #expect(try Data(contentsOf: store) == before)
        guard hasCache else {
            #expect(run.status == 65 && run.stdout == "", "\(run)")
            #expect(run.stderrLines.count == 1 && run.stderr.contains("Z_MODELCACHE"), "\(run)")
            return
        }
        #expect(run.status == 0 && run.stderr == "", "\(run)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let exported = document.values.compactMap { $0 as? [Any] }.reduce(0) { $0 + $1.count }
        #expect(exported == rows.values.reduce(0, +), "\(name): \(exported) objects exported, \(rows) rows")
    }

    /// A store Core Data migrated, whose `Z_PRIMARYKEY` names an entity by the former name its
    /// compiled model gives as renaming identifier, exports its objects under the new name.
    @Test func aMigratedStoreExportsItsRenamedEntityUnderItsNewName() throws {
        let run = try ToolRun(["store", "export", Self.folder.appendingPathComponent("CoreDataPlus-SampleModel_V2.sqlite").path])
        #expect(run.status == 0, "\(run)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((document["LuxuryCar"] as? [Any])?.count == 5)
        #expect(document["ExpensiveSportCar"] == nil)
    }

    /// `store check` does not check Core Data's layout: it says so in one line (exit 1), never
    /// that a healthy store Core Data wrote is damaged, and leaves the file as it was.
    @Test func storeCheckSaysItDoesNotCheckCoreDatasLayout() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "CoreDataMigrationRevised-Example_3.sqlite"
        let store = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Self.folder.appendingPathComponent(name), to: store)
        let model = Self.folder.appendingPathComponent("CoreDataMigrationRevised-Example_1")
        let bundle = try FileManager.default.contentsOfDirectory(atPath: model.path).first { $0.hasSuffix(".xcdatamodeld") }
        let before = try Data(contentsOf: store)
        let run = try ToolRun(["store", "check", store.path, "--model", model.appendingPathComponent(try #require(bundle)).path])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty && run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.contains("not supported for stores in Core Data's layout"), "\(run)")
        #expect(!run.stderr.contains("damaged"), "\(run)")
        #expect(try Data(contentsOf: store) == before)
    }
}
