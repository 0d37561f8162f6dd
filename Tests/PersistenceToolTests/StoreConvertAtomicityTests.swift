import Foundation
import PersistenceSQLite
import PersistenceTestSupport
import ProcessTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `persistence-tool store convert` writes its copy into a hidden file beside the destination
/// and moves it into place only when complete: a convert killed part way, or one that fails
/// part way (a value the source cannot read, met after other rows were copied), leaves no
/// destination file, and no work file after a failure; the error names the destination.
@Suite struct StoreConvertAtomicityTests {
    static let model = ["--model", ModelFixtures.sampleBundle.path, "--version", "SampleModel"]

    /// A Persistence store of SampleModel holding `count` people, in a folder of its own.
    static func storeOfPeople(_ count: Int) throws -> (directory: URL, store: String) {
        let directory = try ModelFixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("people.sqlite").path
        let people = (0..<count).map { n in
            "{\"firstName\": \"P\(n)\", \"id\": \"\(UUID().uuidString)\", \"updatedAt\": \"2024-01-02T03:04:05Z\"}"
        }
        let input = directory.appendingPathComponent("in.json")
        try Data("{\"Person\": [\(people.joined(separator: ",\n"))]}".utf8).write(to: input)
        let created = try ToolRun(["store", "create", store] + model)
        #expect(created.status == 0, "\(created)")
        let imported = try ToolRun(["store", "import", store, input.path] + model)
        #expect(imported.status == 0, "\(imported)")
        try FileManager.default.removeItem(at: input)
        return (directory, store)
    }

    static func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func aConvertKilledPartWayLeavesNoDestinationFile() throws {
        let (directory, store) = try Self.storeOfPeople(20_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Self.files(in: directory)
        let destination = directory.appendingPathComponent("CoreData.sqlite")
        let process = Process()
        process.executableURL = try ToolRun.executable()
        process.arguments = ["store", "convert", store, destination.path] + Self.model
        process.environment = ["LANG": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed as soon as the convert makes a file (the source's own journal files aside):
        // the copy has begun, not ended.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline,
            try Self.files(in: directory).allSatisfy({ before.contains($0) || $0.hasPrefix("people.sqlite") })
        {
            usleep(1_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the convert ended before it was killed")
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        // A second convert is not refused for a file the first left.
        let again = try ToolRun(["store", "convert", store, destination.path] + Self.model)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == "Copied 20000 objects from \(store) into \(destination.path).\n")
        #expect(
            try Self.files(in: directory).filter { !$0.contains(".converting-") && !$0.hasPrefix("people.sqlite-") }
                == (before + ["CoreData.sqlite"]).sorted())
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aConvertInterruptedPartWayLeavesNothingBehind(_ signal: Int32) throws {
        let (directory, store) = try Self.storeOfPeople(20_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Self.files(in: directory)
        let destination = directory.appendingPathComponent("CoreData.sqlite")
        let process = Process()
        process.executableURL = try ToolRun.executable()
        process.arguments = ["store", "convert", store, destination.path] + Self.model
        process.environment = ["LANG": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Interrupted once the copy has begun: its work file is there.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline,
            try !Self.files(in: directory).contains(where: { $0.contains(".converting-") && !$0.hasSuffix("-journal") })
        {
            usleep(1_000)
        }
        usleep(50_000)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal, "ended by the signal")
        #expect(try Self.files(in: directory).filter { !$0.hasPrefix("people.sqlite-") } == before)
    }

    @Test func aConvertThatFailsPartWayLeavesNoFileAndNamesTheDestination() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Core Data's store: its cars are copied before its people, one of whom can't be read.
        let store = directory.appendingPathComponent("SampleModel_V1.sqlite")
        try FileManager.default.copyItem(
            at: BuiltProduct.repositoryRoot.appendingPathComponent("Tests/Fixtures/coredata/SampleModel_V1.sqlite"), to: store)
        let database = try Database(path: store.path, mode: .mustExist)
        try database.execute("UPDATE ZPERSON SET ZUPDATEDAT = X'0102' WHERE Z_PK = (SELECT max(Z_PK) FROM ZPERSON)")
        try database.close()
        let before = try Self.files(in: directory)
        let destination = directory.appendingPathComponent("converted.sqlite").path
        let run = try ToolRun(["store", "convert", store.path, destination, "--model", ModelFixtures.sampleBundle.path])
        #expect(run.status != 0)
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(!run.stderr.contains(".converting-"), "\(run)")
        #expect(run.stdout == "")
        #expect(try Self.files(in: directory) == before)
    }
}
