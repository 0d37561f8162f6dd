import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// A store whose schema SQLite cannot read (a file cut short) is the worst damage a check
/// can find: `StoreCheck` reports it as a problem, and `persistence-tool store check` says
/// the store is damaged (exit 1), where it used to refuse the file (65) and tell the user
/// to run `store check`.
@Suite struct StoreCheckUnreadableFileTests {
    /// A Moody store cut to its first 3,000 bytes, in a new directory.
    static func truncatedStore() throws -> (directory: URL, store: URL) {
        let directory = try ModelFixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("cut.sqlite")
        let create = try ToolRun(["store", "create", store.path, "--model", ModelFixtures.moody.path])
        #expect(create.status == 0, "\(create)")
        try Data(try Data(contentsOf: store).prefix(3_000)).write(to: store)
        return (directory, store)
    }

    @Test func aStoreCutShortIsReportedAsAProblem() throws {
        let (directory, store) = try Self.truncatedStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.moody)
        let result = try StoreCheck.run(storeURL: store, model: model)
        #expect(result.problems == ["SQLite cannot read the file: database disk image is malformed"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cut.sqlite"])
    }

    @Test func storeCheckSaysAStoreCutShortIsDamaged() throws {
        let (directory, store) = try Self.truncatedStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try Data(contentsOf: store)
        let run = try ToolRun(["store", "check", store.path, "--model", ModelFixtures.moody.path])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout == "SQLite cannot read the file: database disk image is malformed\n", "\(run)")
        #expect(run.stderr == "error: \(store.path) is damaged: 1 problem found\n", "\(run)")
        #expect(try Data(contentsOf: store) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cut.sqlite"])
    }
}
