import Foundation
import PersistenceTestSupport
import ProcessTestSupport
import Testing

import Persistence

#if canImport(Glibc)
    import Glibc
#endif

/// `persistence-tool store …` given odd inputs: standard input that is a directory, closed or
/// endless, FIFOs and devices, files that are not stores, damaged stores; and what export,
/// create and migrate leave behind.
@Suite struct HostileStoreToolTests {
    /// A temporary folder with a model file (the external-storage test model) and a store
    /// holding one book whose cover lives in an external data file.
    final class Fixture {
        let directory: URL
        let model: URL
        let store: URL

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
            model = directory.appendingPathComponent("Books.xcdatamodel")
            store = directory.appendingPathComponent("Books.sqlite")
            try ExternalStorageFolder.model().write(to: model)
            let container = try PersistentContainer(
                model: try ManagedObjectModel(contentsOf: model), storeURL: store)
            let book = try container.viewContext.insertObject(forEntityName: "Book")
            book["title"] = "Cover"
            book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 10)
            try container.viewContext.save()
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Every entry under the folder, recursively, with its size.
        func listing() -> [String] {
            let enumerator = FileManager.default.enumerator(atPath: directory.path)
            var entries: [String] = []
            while let name = enumerator?.nextObject() as? String {
                let size = (try? FileManager.default.attributesOfItem(atPath: directory.path + "/" + name))?[.size] as? Int
                entries.append("\(name) \(size ?? -1)")
            }
            return entries.sorted()
        }

        var modelArguments: [String] { ["--model", model.path] }
    }

    /// Runs the tool under `timeout` (a hang fails with 124), with standard input from
    /// `stdinPath`, or closed when `closedStdin` is set.
    static func run(_ arguments: [String], stdinPath: String? = nil, closedStdin: Bool = false) throws -> (status: Int32, stdout: String, stderr: String) {
        let tool = try ToolRun.executable().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        let redirect = closedStdin ? " <&-" : stdinPath.map { " < '\($0)'" } ?? " < /dev/null"
        process.arguments = ["10", "/bin/sh", "-c", "exec \"$0\" \"$@\"" + redirect, tool] + arguments
        process.environment = ["LANG": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"]
        let run = try ChildProcess.run(process)
        return (run.status, run.stdoutText, run.stderrText)
    }

    @Test func importFromStandardInputThatIsADirectoryClosedOrEndlessIsRefused() throws {
        let fixture = try Fixture()
        let bytes = try Data(contentsOf: fixture.store)
        let before = fixture.listing()
        let arguments = ["store", "import", fixture.store.path, "-"] + fixture.modelArguments
        let directory = try Self.run(arguments, stdinPath: fixture.directory.path)
        #expect(directory.status == 66, "\(directory)")
        #expect(directory.stderr == "error: standard input can't be read: it is a directory\n")
        let closed = try Self.run(arguments, closedStdin: true)
        #expect(closed.status == 66, "\(closed)")
        #expect(closed.stderr == "error: standard input can't be read: it is closed\n")
        let endless = try Self.run(arguments, stdinPath: "/dev/zero")
        #expect(endless.status == 65, "\(endless)")
        #expect(endless.stderr == "error: standard input can't be read: it does not start with a JSON object\n")
        #expect(try Data(contentsOf: fixture.store) == bytes)
        #expect(fixture.listing() == before)
    }

    @Test func anInputLargerThanTheBoundIsRefusedNotReadToTheEnd() throws {
        // The bound itself is 1 GiB (InputFile.maximumSize); the same code with a small one.
        let error = try #require(throws: InputFileError.self) {
            try InputFile.read("/dev/zero", limit: 1 << 20)
        }
        #expect(error.kind == .tooLarge)
        #expect(error.description == "/dev/zero can't be read: it holds more than 1048576 bytes, the most that is read")
        #expect(InputFile.maximumSize == 1 << 30)
    }

    @Test func fifosAreNeverWaitedOn() throws {
        let fixture = try Fixture()
        let fifo = fixture.directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let model = try Self.run(["model", "validate", fifo])
        #expect(model.status == 66, "\(model)")
        #expect(model.stderr == "error: Can't read the model at \(fifo): it is not a regular file.\n")
        let storeModel = try Self.run(["store", "export", fixture.store.path, "--model", fifo])
        #expect(storeModel.status == 66, "\(storeModel)")
        // An import file may be a pipe (`<(command)`); a FIFO nobody writes to reads as empty.
        let importing = try Self.run(["store", "import", fixture.store.path, fifo] + fixture.modelArguments)
        #expect(importing.status == 65, "\(importing)")
        let store = try Self.run(["store", "export", fifo] + fixture.modelArguments)
        #expect(store.status == 1, "\(store)")
        #expect(store.stderr == "error: \(fifo) is a FIFO (named pipe), not a store file; it was left untouched\n")
    }

    @Test func exportChangesNothingAndNeverWritesOverADevice() throws {
        let fixture = try Fixture()
        // A file no row references (as a crash leaves): a writable open sweeps it, export not.
        let orphan = URL(fileURLWithPath: ExternalDataStore.directory(forStorePath: fixture.store.path))
            .appendingPathComponent(UUID().uuidString)
        try Data("orphan".utf8).write(to: orphan)
        let bytes = try Data(contentsOf: fixture.store)
        let before = fixture.listing()
        let export = try Self.run(["store", "export", fixture.store.path] + fixture.modelArguments)
        #expect(export.status == 0, "\(export)")
        #expect(export.stdout.contains("\"title\": \"Cover\"") || export.stdout.contains("\"title\":\"Cover\""), "\(export.stdout.prefix(300))")
        #expect(try Data(contentsOf: fixture.store) == bytes)
        #expect(fixture.listing() == before, "export changed the folder")

        let devices = try FileManager.default.contentsOfDirectory(atPath: "/dev").sorted()
        let toDevice = try Self.run(["store", "export", fixture.store.path, "--output", "/dev/null"] + fixture.modelArguments)
        #expect(toDevice.status == 1, "\(toDevice)")
        #expect(toDevice.stderr == "error: Cannot write /dev/null: it is a device; nothing was written.\n", "\(toDevice)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/dev").sorted() == devices)
        #expect(fixture.listing() == before)
    }

    @Test func aCreateThatFailsLeavesNoFileSoARetryCanSucceed() throws {
        let fixture = try Fixture()
        // SQLite reserves table names starting with "sqlite_": the schema cannot be made.
        let bad = fixture.directory.appendingPathComponent("Bad.xcdatamodel")
        try ManagedObjectModel { Entity("sqlite_Things") { Attribute("name", .string) } }.write(to: bad)
        let store = fixture.directory.appendingPathComponent("New.sqlite").path
        for _ in 0..<2 {
            let create = try Self.run(["store", "create", store, "--model", bad.path])
            #expect(create.status != 0, "\(create)")
            #expect(!create.stderr.contains("already exists"), "\(create.stderr)")
            #expect(create.stderr.split(separator: "\n").count == 1, "\(create.stderr)")
            #expect(!FileManager.default.fileExists(atPath: store))
            #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
        }
        let good = try Self.run(["store", "create", store] + fixture.modelArguments)
        #expect(good.status == 0, "\(good)")
        let again = try Self.run(["store", "create", store] + fixture.modelArguments)
        #expect(again.status == 1)
        #expect(again.stderr == "error: \(store) already exists; store create makes a new store\n")
    }

    @Test func refusedStoresExit65EverywhereAndMigrateLeavesNoFileBeside() throws {
        let fixture = try Fixture()
        let notADatabase = fixture.directory.appendingPathComponent("notes.txt")
        try Data("just text, not SQLite\n".utf8).write(to: notADatabase)
        let before = fixture.listing()
        for command in ["migrate", "export", "check"] {
            let run = try Self.run(["store", command, notADatabase.path] + fixture.modelArguments)
            #expect(run.status == 65, "\(command): \(run)")
            #expect(run.stderr == "error: \(notADatabase.path) is not an SQLite database; it was left untouched\n", "\(command)")
        }
        #expect(fixture.listing() == before)
    }

    @Test func storeCheckSaysWhatIsWrong() throws {
        let fixture = try Fixture()
        let healthy = try Self.run(["store", "check", fixture.store.path] + fixture.modelArguments)
        #expect(healthy.status == 0, "\(healthy)")
        #expect(healthy.stdout == "\(fixture.store.path) is healthy.\n")
        let folder = ExternalDataStore.directory(forStorePath: fixture.store.path)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
        try FileManager.default.removeItem(atPath: folder + "/" + file)
        let damaged = try Self.run(["store", "check", fixture.store.path] + fixture.modelArguments)
        #expect(damaged.status == 1, "\(damaged)")
        #expect(damaged.stdout == "external data file missing or truncated: Book/p1.cover → \(folder)/\(file)\n")
        #expect(damaged.stderr == "error: \(fixture.store.path) is damaged: 1 problem found\n")
    }

    @Test func aDryRunLeavesNoFileBesideTheStore() throws {
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("name", .string)
                Attribute("year", .integer16, default: "0")
            }
        }
        let fixture = try StoreMigrateCommandTests.Fixture([("Books", StoreMigrateCommandTests.v1), ("Books2", v2)])
        let before = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path).sorted()
        let bytes = try fixture.bytes()
        let result = try fixture.run(["--dry-run"])
        #expect(result.status == 0, "\(result)")
        #expect(try fixture.bytes() == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path).sorted() == before)
    }
}
