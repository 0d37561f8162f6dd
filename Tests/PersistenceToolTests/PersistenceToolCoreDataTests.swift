import Foundation
import PersistenceTestSupport
import Persistence
import PersistenceSQLite
import ProcessTestSupport
import Testing

/// `persistence-tool store …` on the store Core Data wrote (Tests/Fixtures/coredata), run as
/// the built binary: export, delete and convert work on it unchanged, and a model of another
/// structure is refused in one line, the file untouched.
@Suite struct PersistenceToolCoreDataTests {
    static let fixtures = BuiltProduct.repositoryRoot.appendingPathComponent("Tests/Fixtures")
    static let model = ["--model", fixtures.appendingPathComponent("models/CoreDataPlus/SampleModel.xcdatamodeld").path]

    /// A copy of the fixture store in a folder of its own.
    static func copy() throws -> (directory: URL, store: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cd-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = directory.appendingPathComponent("SampleModel_V1.sqlite")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("coredata/SampleModel_V1.sqlite"), to: store)
        return (directory, store.path)
    }

    /// Each exported object of `entity`, by the value of `key`, with its relationships'
    /// `@id`s replaced by the destinations' `key` values: what a copy must keep exactly.
    static func objects(_ json: String) throws -> [String: [String: String]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [[String: Any]]])
        var names: [String: String] = [:]
        for (_, objects) in document {
            for object in objects {
                let name = (object["numberPlate"] as? String).map { "car " + $0 }
                    ?? "person \(object["firstName"] as? String ?? "") \(object["lastName"] as? String ?? "")"
                names[object["@id"] as? String ?? ""] = name
            }
        }
        var result: [String: [String: String]] = [:]
        for (entity, objects) in document {
            for object in objects {
                var values: [String: String] = ["entity": entity]
                for (key, value) in object where key != "@id" {
                    switch value {
                    case let id as String where names[id] != nil && key != "numberPlate": values[key] = names[id]
                    case let ids as [String]: values[key] = ids.map { names[$0] ?? $0 }.sorted().joined(separator: ", ")
                    default: values[key] = "\(value)"
                    }
                }
                result[names[object["@id"] as? String ?? ""] ?? ""] = values
            }
        }
        return result
    }

    @Test func exportPrintsEveryObjectWithTheValuesCoreDataStored() throws {
        let copy = try Self.copy()
        defer { try? FileManager.default.removeItem(at: copy.directory) }
        let before = try Data(contentsOf: URL(fileURLWithPath: copy.store))
        let run = try ToolRun(["store", "export", copy.store] + Self.model)
        #expect(run.status == 0 && run.stderr == "", "\(run)")
        let objects = try Self.objects(run.stdout)
        #expect(objects.count == 145)
        #expect(objects.values.filter { $0["entity"] == "ExpensiveSportCar" }.count == 5)
        let bmw = try #require(objects["car 300"])
        #expect(bmw["maker"] == "BMW" && bmw["isLimitedEdition"] == "1" && bmw["owner"] == "person Faron Moreton")
        let victoria = try #require(objects["person Victoria Coster"])
        #expect(victoria["updatedAt"]?.hasPrefix("2021-04-07T") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.store)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy.directory.path) == ["SampleModel_V1.sqlite"])
    }

    @Test func deleteRemovesTheRowAndKeepsCoreDatasBookkeeping() throws {
        let copy = try Self.copy()
        defer { try? FileManager.default.removeItem(at: copy.directory) }
        let run = try ToolRun(["store", "delete", copy.store, "--id", "Car/p87"] + Self.model)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "Deleted 1 object: ExpensiveSportCar/p87.\n")
        let database = try Database(path: copy.store, mode: .readOnly)
        defer { try? database.close() }
        #expect(try database.scalar("SELECT count(*) FROM ZCAR").int64Value == 124)
        #expect(try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1").int64Value == 125)
    }

    @Test func aModelOfAnotherStructureExits65InOneLineWithTheFileUntouched() throws {
        let copy = try Self.copy()
        defer { try? FileManager.default.removeItem(at: copy.directory) }
        let before = try Data(contentsOf: URL(fileURLWithPath: copy.store))
        let run = try ToolRun(["store", "export", copy.store, "--version", "SampleModel2"] + Self.model)
        #expect(run.status == 65, "\(run)")
        #expect(run.stdout == "" && run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.contains("the store has entity ExpensiveSportCar (Z_ENT 3), which the model does not have"), "\(run)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.store)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy.directory.path) == ["SampleModel_V1.sqlite"])
    }

    @Test func convertCopiesEveryObjectIntoAPersistenceStoreAndBackExactly() throws {
        let copy = try Self.copy()
        defer { try? FileManager.default.removeItem(at: copy.directory) }
        let destination = copy.directory.appendingPathComponent("converted.sqlite").path
        let run = try ToolRun(["store", "convert", copy.store, destination] + Self.model)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "Copied 145 objects from \(copy.store) into \(destination).\n")
        let source = try ToolRun(["store", "export", copy.store] + Self.model)
        let converted = try ToolRun(["store", "export", destination] + Self.model)
        #expect(converted.status == 0, "\(converted)")
        #expect(try Self.objects(converted.stdout) == Self.objects(source.stdout))
        // The copy is a Persistence store: no Z tables.
        let database = try Database(path: destination, mode: .readOnly)
        defer { try? database.close() }
        #expect(try database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'Z_PRIMARYKEY'").int64Value == 0)
        // And back into Core Data's layout: the same objects, Core Data's bookkeeping.
        let back = copy.directory.appendingPathComponent("back.sqlite").path
        let reverse = try ToolRun(["store", "convert", destination, back] + Self.model)
        #expect(reverse.status == 0, "\(reverse)")
        let exported = try ToolRun(["store", "export", back] + Self.model)
        #expect(try Self.objects(exported.stdout) == Self.objects(source.stdout))
        let made = try Database(path: back, mode: .readOnly)
        defer { try? made.close() }
        let keys = try made.query("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        #expect(keys.map { $0.map(\.description).joined(separator: " ") } == [
            "1 'Car' 0 125", "2 'SportCar' 1 0", "3 'ExpensiveSportCar' 2 0", "4 'Person' 0 20",
        ])
        let original = try Database(path: copy.store, mode: .readOnly)
        defer { try? original.close() }
        let madePlist = try #require(try made.scalar("SELECT Z_PLIST FROM Z_METADATA").dataValue)
        let originalPlist = try #require(try original.scalar("SELECT Z_PLIST FROM Z_METADATA").dataValue)
        #expect(
            try BinaryPropertyList.read(madePlist) == BinaryPropertyList.read(originalPlist),
            "the metadata Core Data wrote for the same model")
        // A second convert into the same file is refused.
        let again = try ToolRun(["store", "convert", copy.store, destination] + Self.model)
        #expect(again.status == 1 && again.stderrLines.count == 1, "\(again)")
    }
}
