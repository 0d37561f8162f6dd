import Foundation
import PersistenceTestSupport
import Persistence
import PersistenceSQLite
import ProcessTestSupport
import Testing

/// `persistence-tool store …` on a store Core Data wrote, without `--model`: the model is the
/// one Core Data compiled into the store (its `Z_MODELCACHE`). Run as the built binary on a
/// copy of the fixture (Tests/Fixtures/coredata).
@Suite struct PersistenceToolStoredModelTests {
    typealias Fixture = PersistenceToolCoreDataTests

    /// The fixture's files beside the store, and the store's bytes: what a refused command
    /// must leave exactly as they were.
    static func snapshot(_ copy: (directory: URL, store: String)) throws -> ([String], Data) {
        (
            try FileManager.default.contentsOfDirectory(atPath: copy.directory.path).sorted(),
            try Data(contentsOf: URL(fileURLWithPath: copy.store))
        )
    }

    @Test func exportWithoutAModelPrintsTheSameDocumentAsWithTheModelFile() throws {
        let copy = try Fixture.copy()
        defer { try? FileManager.default.removeItem(at: copy.directory) }
        let before = try Self.snapshot(copy)
        let withModel = try ToolRun(["store", "export", copy.store] + Fixture.model)
        let withoutModel = try ToolRun(["store", "export", copy.store])
        #expect(withoutModel.status == 0 && withoutModel.stderr == "", "\(withoutModel)")
        #expect(withModel.status == 0)
        #expect(withoutModel.stdout == withModel.stdout)
        #expect(try Fixture.objects(withoutModel.stdout).count == 145)
        #expect(try Self.snapshot(copy) == before)
    }

    @Test func convertWithoutAModelCopiesTheCoreDataStoreIntoAPersistenceStore() throws {
        let copy = try Fixture.copy()
        defer { try? FileManager.default.removeItem(at: copy.directory) }
        let destination = copy.directory.appendingPathComponent("converted.sqlite").path
        let run = try ToolRun(["store", "convert", copy.store, destination])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "Copied 145 objects from \(copy.store) into \(destination).\n")
        let source = try ToolRun(["store", "export", copy.store])
        let converted = try ToolRun(["store", "export", destination] + Fixture.model)
        #expect(converted.status == 0, "\(converted)")
        #expect(try Fixture.objects(converted.stdout) == Fixture.objects(source.stdout))
        // The copy is a Persistence store, which names no model of its own: --model it is.
        let bare = try ToolRun(["store", "export", destination])
        #expect(bare.status == 64 && bare.stderrLines.count == 1, "\(bare)")
    }

    @Test func deleteAndImportWithoutAModelWriteInCoreDatasLayout() throws {
        let copy = try Fixture.copy()
        defer { try? FileManager.default.removeItem(at: copy.directory) }
        let delete = try ToolRun(["store", "delete", copy.store, "--id", "Car/p87"])
        #expect(delete.status == 0, "\(delete)")
        #expect(delete.stdout == "Deleted 1 object: ExpensiveSportCar/p87.\n")
        let document = copy.directory.appendingPathComponent("people.json")
        try Data(#"{"Person": [{"@id": "a", "firstName": "Ada", "lastName": "Lovelace", "id": "0B1B2B3B-0000-4000-8000-000000001815", "updatedAt": "2024-01-01T00:00:00Z"}]}"#.utf8).write(to: document)
        let importRun = try ToolRun(["store", "import", copy.store, document.path])
        #expect(importRun.status == 0, "\(importRun)")
        #expect(importRun.stdout == "Imported 1 object into \(copy.store) (Person 1).\n")
        let database = try Database(path: copy.store, mode: .readOnly)
        defer { try? database.close() }
        #expect(try database.scalar("SELECT count(*) FROM ZCAR").int64Value == 124)
        #expect(try database.scalar("SELECT Z_PK FROM ZPERSON WHERE ZFIRSTNAME = 'Ada'").int64Value == 21)
        #expect(try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'").int64Value == 21)
    }

    @Test func aPersistenceStoreWithoutAModelIsStillAUsageError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cd-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("cars.sqlite").path
        let create = try ToolRun(["store", "create", store, "--version", "SampleModel"] + Fixture.model)
        #expect(create.status == 0, "\(create)")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        for command in [["export", store], ["delete", store, "--id", "Car/p1"], ["convert", store, store + ".cd"]] {
            let run = try ToolRun(["store"] + command)
            #expect(run.status == 64 && run.stdout == "", "\(run)")
            #expect(
                run.stderrLines == [
                    "Error: Missing expected argument '--model <path>' (only a store Core Data wrote opens without it). "
                        + "See 'persistence-tool help store \(command[0])'."
                ], "\(run)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cars.sqlite"])
        // A version names a version of a --model bundle: alone it is a usage error.
        let copy = try Fixture.copy()
        defer { try? FileManager.default.removeItem(at: copy.directory) }
        let version = try ToolRun(["store", "export", copy.store, "--version", "SampleModel"])
        #expect(version.status == 64 && version.stderrLines.count == 1, "\(version)")
        #expect(version.stderr.hasPrefix("Error: '--version' names a version of the '--model' bundle"), "\(version)")
    }

    @Test(arguments: [
        ("DELETE FROM Z_MODELCACHE", "it keeps no compiled model (Z_MODELCACHE is empty); give the model file"),
        ("DROP TABLE Z_MODELCACHE", "it keeps no compiled model (it has no Z_MODELCACHE table); give the model file"),
        ("UPDATE Z_MODELCACHE SET Z_CONTENT = x'0BADF00D0BADF00D'", "its compiled model (Z_MODELCACHE) can't be read: Invalid DEFLATE stream"),
        (
            "UPDATE Z_MODELCACHE SET Z_CONTENT = substr(Z_CONTENT, 1, length(Z_CONTENT) / 2)",
            "its compiled model (Z_MODELCACHE) can't be read: Invalid DEFLATE stream"
        ),
    ])
    func aStoreWhoseModelCacheIsMissingOrCorruptExits65InOneLineUntouched(_ damage: String, _ reason: String) throws {
        let copy = try Fixture.copy()
        defer { try? FileManager.default.removeItem(at: copy.directory) }
        let database = try Database(path: copy.store, mode: .mustExist)
        try database.execute(damage)
        try database.close()
        let before = try Self.snapshot(copy)
        for command in [["export", copy.store], ["delete", copy.store, "--id", "Car/p1"], ["convert", copy.store, copy.store + ".new"]] {
            let run = try ToolRun(["store"] + command)
            #expect(run.status == 65 && run.stdout == "", "\(run)")
            #expect(run.stderrLines.count == 1, "\(run)")
            #expect(run.stderr.hasPrefix("error: The Core Data store \(copy.store) can't be read: \(reason)"), "\(run)")
            #expect(run.stderr.hasSuffix("; it was left untouched\n"), "\(run)")
        }
        #expect(try Self.snapshot(copy) == before)
        // The model file still opens it.
        let withModel = try ToolRun(["store", "export", copy.store] + Fixture.model)
        #expect(withModel.status == 0, "\(withModel)")
    }

    @Test func convertIntoCoreDataKeepsLargeBinaryValuesInFilesAndExportsThemWithoutAModel() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cd-tool-\(UUID().uuidString)")
        let modelFolder = directory.appendingPathComponent("Photos.xcdatamodel")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Photo" representedClassName="Photo" syncable="YES">
                    <attribute name="caption" optional="YES" attributeType="String"/>
                    <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                </entity>
            </model>
            """.utf8
        ).write(to: modelFolder.appendingPathComponent("contents"))
        let model = ["--model", modelFolder.path]
        let large = Data((0..<250_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let document = directory.appendingPathComponent("photos.json")
        try Data(
            #"{"Photo": [{"@id": "a", "caption": "large", "image": "\#(large.base64EncodedString())"}, {"@id": "b", "caption": "small", "image": "AAEC"}]}"#
                .utf8
        ).write(to: document)
        let source = directory.appendingPathComponent("photos.sqlite").path
        #expect(try ToolRun(["store", "create", source] + model).status == 0)
        let imported = try ToolRun(["store", "import", source, document.path] + model)
        #expect(imported.status == 0, "\(imported)")
        let destination = directory.appendingPathComponent("Photos.sqlite").path
        let convert = try ToolRun(["store", "convert", source, destination] + model)
        #expect(convert.status == 0, "\(convert)")
        let external = directory.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
        let files = try FileManager.default.contentsOfDirectory(atPath: external.path)
        #expect(files.count == 1, "\(files)")
        #expect(try Data(contentsOf: external.appendingPathComponent(files.first ?? "")) == large)
        // The model compiled into the new store keeps external storage allowed: the values
        // read back through it, without the model file, are the imported ones.
        let original = try ToolRun(["store", "export", source] + model)
        let copied = try ToolRun(["store", "export", destination])
        #expect(copied.status == 0, "\(copied)")
        func values(_ run: ToolRun) throws -> [String] {
            let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: [[String: Any]]])
            return (document["Photo"] ?? []).map { "\($0["caption"] ?? "") \($0["image"] ?? "")" }.sorted()
        }
        #expect(try values(copied) == values(original))
        #expect(try values(copied).contains("large \(large.base64EncodedString())"))
    }
}
