import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// `persistence-tool store …`, run as the built binary: round trips for every fixture
/// model, and every failure with its exit code, its message and the store left as it was.
@Suite struct PersistenceToolStoreTests {
    // MARK: - Round trips

    @Test(arguments: ModelFixtures.realModels)
    func generatedValuesRoundTripThroughExportAndImport(_ fixture: ModelFixture) throws {
        let model = try fixture.load()
        try model.freeze()
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model_ = ["--model", fixture.url.path] + fixture.versionArguments
        let generated = ArchiveDocuments.generated(for: model)
        let input = try Self.write(generated, to: directory, "generated.json")

        let first = directory.appendingPathComponent("first.sqlite").path
        try Self.expectSuccess(["store", "create", first] + model_)
        try Self.expectSuccess(["store", "import", first, input] + model_)
        let exported = try JSONValue.parse(
            Data(try Self.expectSuccess(["store", "export", first] + model_).utf8))

        let sent = ArchiveDocuments.attributeValues(generated, model: model)
        let received = ArchiveDocuments.attributeValues(exported, model: model)
        #expect(!sent.isEmpty)
        for (key, value) in sent { #expect(received[key] == value, "\(key)") }
        try Self.expectInversesAgree(exported, model)

        let second = directory.appendingPathComponent("second.sqlite").path
        try Self.expectSuccess(["store", "create", second] + model_)
        try Self.expectSuccess(
            ["store", "import", second, try Self.write(exported, to: directory, "exported.json")]
                + model_)
        let again = try JSONValue.parse(
            Data(try Self.expectSuccess(["store", "export", second] + model_).utf8))
        #expect(ArchiveDocuments.normalized(again) == ArchiveDocuments.normalized(exported))
    }

    // MARK: - Bad data

    @Test(arguments: [
        (
            #"{"Car": [}"#,
            "error: FILE: malformed JSON at line 1, column 10: expected a value, found '}'"
        ),
        (
            #"{"Truck": []}"#,
            "error: FILE: $.Truck: the model has no entity named 'Truck' (its entities: Car, ExpensiveSportCar, Person, SportCar)"
        ),
        (
            #"{"Car": [{"@id": "c", "numberPlate": "X", "wheels": 4}]}"#,
            #"error: FILE: $.Car[0].wheels (@id "c"): Car has no property named 'wheels' (its properties: color, currentDrivingSpeed, maker, markedForDeletionAsOf, model, numberPlate, owner)"#
        ),
        (
            #"{"Person": [{"@id": "p", "updatedAt": 1700000000}]}"#,
            #"error: FILE: $.Person[0].updatedAt (@id "p"): expected an ISO 8601 string (Date), got a number (1700000000)"#
        ),
        (
            #"{"Car": [{"@id": "c", "numberPlate": "X", "owner": "nobody"}]}"#,
            #"error: FILE: $.Car[0].owner (@id "c"): no object in the document has @id "nobody""#
        ),
        (
            #"{"SportCar": [{"@id": "s", "maker": "Fiat"}]}"#,
            #"error: Validation failed: $.SportCar[0] (@id "s"): SportCar.numberPlate nil is required (validation error 1570)"#
        ),
        (
            #"{"Car": [{"@id": "c", "numberPlate": "AB-123"}]}"#,
            #"error: $.Car[0] (@id "c") conflicts with another Car on the unique constraint (numberPlate): numberPlate = "AB-123" is already taken"#
        ),
    ])
    func badImportsExit65AndLeaveTheStoreByteIdentical(_ json: String, _ message: String) throws {
        let sample = try Self.sampleStore()
        defer { try? FileManager.default.removeItem(at: sample.directory) }
        let before = try Data(contentsOf: URL(fileURLWithPath: sample.store))
        let file = sample.directory.appendingPathComponent("bad.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        let result = try ToolRun(["store", "import", sample.store, file] + sample.model)
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderrLines == [message.replacingOccurrences(of: "FILE", with: file)])
        #expect(try Data(contentsOf: URL(fileURLWithPath: sample.store)) == before)
        #expect(try Self.files(in: sample.directory) == ["bad.json", "in.json", "s.sqlite"])
    }

    @Test func importReadsStandardInputForADash() throws {
        let sample = try Self.sampleStore()
        defer { try? FileManager.default.removeItem(at: sample.directory) }
        let json =
            #"{"Person": [{"firstName": "Grace", "updatedAt": "2024-01-01T00:00:00Z", "id": "00000000-0000-0000-0000-000000000001"}]}"#
        let result = try ToolRun(
            ["store", "import", sample.store, "-"] + sample.model, input: Data(json.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Imported 1 object into \(sample.store) (Person 1).\n")
        let exported = try Self.expectSuccess(["store", "export", sample.store] + sample.model)
        #expect(exported.contains(#""firstName": "Grace""#))
    }

    @Test func aStoreOfAnotherModelOrNotAStoreIsRefusedUntouched() throws {
        let sample = try Self.sampleStore()
        defer { try? FileManager.default.removeItem(at: sample.directory) }
        let before = try Data(contentsOf: URL(fileURLWithPath: sample.store))
        let other = ["--model", ModelFixtures.moody.path]
        let wrongModel = try ToolRun(["store", "export", sample.store] + other)
        #expect(wrongModel.status == 65)
        #expect(
            wrongModel.stderr.hasPrefix(
                "error: The store \(sample.store) was written with a different model"),
            "\(wrongModel)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sample.store)) == before)

        let text = sample.directory.appendingPathComponent("notes.txt")
        try Data("not a database, just text that is long enough to look like a file".utf8).write(
            to: text)
        for command in [
            ["export", text.path],
            ["import", text.path, sample.directory.appendingPathComponent("in.json").path],
        ] {
            let result = try ToolRun(["store"] + command + sample.model)
            #expect(result.status == 65, "\(result)")
            #expect(
                result.stderrLines == [
                    "error: \(text.path) is not an SQLite database; it was left untouched"
                ])
        }
        #expect(try String(contentsOf: text, encoding: .utf8).hasPrefix("not a database"))
    }

    @Test func withoutVersionTheBundleVersionTheStoreWasWrittenWithIsUsed() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = ModelFixtures.sampleBundle.path
        let store = directory.appendingPathComponent("v3.sqlite").path
        try Self.expectSuccess([
            "store", "create", store, "--model", bundle, "--version", "SampleModel3",
        ])
        let json = #"{"Maker": [{"name": "Fiat"}]}"#
        let imported = try ToolRun(
            ["store", "import", store, "-", "--model", bundle], input: Data(json.utf8))
        #expect(imported.status == 0, "\(imported)")
        let exported = try Self.expectSuccess(["store", "export", store, "--model", bundle])
        #expect(exported.contains(#""name": "Fiat""#))
        let explicit = try ToolRun([
            "store", "export", store, "--model", bundle, "--version", "SampleModel",
        ])
        #expect(explicit.status == 65)
        #expect(
            explicit.stderr.hasPrefix(
                "error: The store \(store) was written with a different model"))

        let moody = directory.appendingPathComponent("moody.sqlite").path
        try Self.expectSuccess(["store", "create", moody, "--model", ModelFixtures.moody.path])
        let none = try ToolRun(["store", "export", moody, "--model", bundle])
        #expect(none.status == 65)
        #expect(
            none.stderr.hasSuffix(
                "nor does any other version of \(bundle) match it (SampleModel, SampleModel2, SampleModel3)\n"
            ),
            "\(none)")
    }

    // MARK: - Missing files and usage

    @Test func missingInputsExit66AndCreateNothing() throws {
        let sample = try Self.sampleStore()
        defer { try? FileManager.default.removeItem(at: sample.directory) }
        let missingStore = sample.directory.appendingPathComponent("missing.sqlite").path
        let input = sample.directory.appendingPathComponent("in.json").path
        let cases: [([String], String)] = [
            (
                ["import", missingStore, input],
                "error: There is no store at \(missingStore); create it with 'persistence-tool store create'."
            ),
            (
                ["export", missingStore],
                "error: There is no store at \(missingStore); create it with 'persistence-tool store create'."
            ),
            (
                ["delete", missingStore, "--id", "Car/p1"],
                "error: There is no store at \(missingStore); create it with 'persistence-tool store create'."
            ),
            (
                ["import", sample.store, "/nonexistent/in.json"],
                "error: There is no readable file at /nonexistent/in.json: no such file."
            ),
        ]
        for (arguments, message) in cases {
            let result = try ToolRun(["store"] + arguments + sample.model)
            #expect(result.status == 66, "\(result)")
            #expect(result.stderrLines == [message])
        }
        let noModel = try ToolRun([
            "store", "export", sample.store, "--model", "/nonexistent/M.xcdatamodel",
        ])
        #expect(noModel.status == 66)
        #expect(noModel.stderr.hasPrefix("error: There is no model at /nonexistent/M.xcdatamodel"))
        #expect(!FileManager.default.fileExists(atPath: missingStore))
    }

    @Test func badCommandLinesExit64OnOneLine() throws {
        let cases: [([String], String, String)] = [
            (
                ["store", "export", "s.sqlite"], "Error: Missing expected argument '--model <path>'",
                "Usage: persistence-tool store export <store> --model <path> [--version <name>] [--output <file>]"
            ),
            (
                ["store", "import", "s.sqlite", "--model", "m"], "Error: Missing expected argument '<file>'",
                "Usage: persistence-tool store import <store> <file> --model <path> [--version <name>]"
            ),
            (
                ["store", "delete", "s.sqlite", "--model", "m"], "Error: Missing expected argument '--id <id>'",
                "Usage: persistence-tool store delete <store> --model <path> [--version <name>] --id <id> ..."
            ),
            (
                ["store", "exprot"], "Error: Unknown command 'exprot'. Did you mean 'export'?",
                "Usage: persistence-tool store <subcommand>"
            ),
        ]
        for (arguments, message, _) in cases {
            let result = try ToolRun(arguments)
            #expect(result.status == 64, "\(result)")
            // One line: the usage is in the help the line points to.
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(result.stderrLines.first?.hasPrefix(message) == true, "\(result)")
            #expect(result.stderr.contains(" See 'persistence-tool help store"), "\(result)")
        }
        let help = try ToolRun(["store", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("SUBCOMMANDS:\n  create") && help.stdout.contains("  delete "))
    }

    // MARK: - create

    @Test func createRefusesAnExistingFileAndLeavesNothingWhenItFails() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let existing = directory.appendingPathComponent("existing.sqlite")
        try Data("keep me".utf8).write(to: existing)
        let refused = try ToolRun([
            "store", "create", existing.path, "--model", ModelFixtures.moody.path,
        ])
        #expect(refused.status == 1)
        #expect(
            refused.stderrLines == [
                "error: \(existing.path) already exists; store create makes a new store"
            ])
        #expect(try String(contentsOf: existing, encoding: .utf8) == "keep me")

        let invalid = directory.appendingPathComponent("Invalid.xcdatamodel")
        try ManagedObjectModel { Entity("Book") { Relationship("author", to: "Nobody") } }.write(
            to: invalid)
        let store = directory.appendingPathComponent("new.sqlite").path
        let invalidModel = try ToolRun(["store", "create", store, "--model", invalid.path])
        #expect(invalidModel.status == 65, "\(invalidModel)")
        #expect(invalidModel.stderr.contains("names an unknown destination entity 'Nobody'"))
        let noDirectory = try ToolRun([
            "store", "create", "/nonexistent/dir/s.sqlite", "--model", ModelFixtures.moody.path,
        ])
        #expect(noDirectory.status == 1)
        #expect(noDirectory.stderrLines == ["error: The directory /nonexistent/dir does not exist"])
        #expect(try Self.files(in: directory) == ["Invalid.xcdatamodel", "existing.sqlite"])
    }

    // MARK: - delete

    @Test func deleteAppliesTheRulesAndADenyDeletesNothing() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let modelURL = directory.appendingPathComponent("Library.xcdatamodel")
        // Owners need two shelves when they have any (Owner/p2 has none, which is allowed).
        try ArchiveDocuments.libraryModel(minimumShelves: 2).write(to: modelURL)
        let model = ["--model", modelURL.path]
        let store = directory.appendingPathComponent("library.sqlite").path
        let input = directory.appendingPathComponent("in.json")
        try Data(ArchiveDocuments.libraryJSONWithAnOwnerWithoutShelves.utf8).write(to: input)
        try Self.expectSuccess(["store", "create", store] + model)
        try Self.expectSuccess(["store", "import", store, input.path] + model)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))

        let denied = try ToolRun(
            ["store", "delete", store, "--id", "Volume/p2", "--id", "Volume/p3"] + model)
        #expect(denied.status == 65)
        #expect(
            denied.stderrLines == [
                "error: Validation failed: Volume/p3: Volume.loans (1 objects) must be empty for the object to be deleted (delete rule Deny) (validation error 1600)"
            ])
        let tooFew = try ToolRun(["store", "delete", store, "--id", "Shelf/p1"] + model)
        #expect(tooFew.status == 65)
        #expect(
            tooFew.stderrLines == [
                "error: Validation failed: Owner/p1: Owner.shelves (1 objects) must hold at least 2 (validation error 1580)"
            ])
        let unknown = try ToolRun(
            ["store", "delete", store, "--id", "Loan/p1", "--id", "Loan/p7"] + model)
        #expect(unknown.status == 65)
        #expect(
            unknown.stderrLines == ["error: Loan/p7: there is no Loan with this ID in the store"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)

        let cascaded = try Self.expectSuccess(
            ["store", "delete", store, "--id", "Owner/p1"] + model)
        #expect(
            cascaded == "Deleted 5 objects: Owner/p1, Shelf/p1, Shelf/p2, Volume/p1, Volume/p2.\n")
        try Self.expectSuccess(["store", "delete", store, "--id", "Loan/p1"] + model)
        try Self.expectSuccess(["store", "delete", store, "--id", "Volume/p3"] + model)
        let left = try Self.expectSuccess(["store", "export", store] + model)
        #expect(
            left.contains("\"Owner/p2\"") && left.contains("\"Shelf/p3\"")
                && !left.contains("Volume"), "\(left)")
    }

    // MARK: - Helpers

    /// A SampleModel (version 1) store holding a person and two cars, with its directory and
    /// `--model` arguments. The export tests use it too.
    static func sampleStore() throws -> (directory: URL, store: String, model: [String]) {
        let directory = try ModelFixtures.temporaryDirectory()
        let model = ["--model", ModelFixtures.sampleBundle.path, "--version", "SampleModel"]
        let store = directory.appendingPathComponent("s.sqlite").path
        let input = directory.appendingPathComponent("in.json")
        try Data(
            """
            {"Person": [{"@id": "p", "firstName": "Ada", "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                         "updatedAt": "2024-01-02T03:04:05.5Z"}],
             "Car": [{"@id": "c", "numberPlate": "AB-123", "owner": "p", "color": "AQID"}],
             "SportCar": [{"numberPlate": "S-1", "owner": "p"}]}
            """.utf8
        ).write(to: input)
        try expectSuccess(["store", "create", store] + model)
        try expectSuccess(["store", "import", store, input.path] + model)
        return (directory, store, model)
    }

    /// Runs the tool, expects exit 0 and nothing on standard error, and returns standard output.
    @discardableResult
    private static func expectSuccess(
        _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let result = try ToolRun(arguments)
        #expect(
            result.status == 0 && result.stderr == "", "\(arguments): \(result)",
            sourceLocation: sourceLocation)
        return result.stdout
    }

    private static func write(_ document: JSONValue, to directory: URL, _ name: String) throws
        -> String
    {
        let url = directory.appendingPathComponent(name)
        try Data(document.rendered().utf8).write(to: url)
        return url.path
    }

    private static func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// Every relationship with an inverse names objects whose inverse names it back.
    private static func expectInversesAgree(_ document: JSONValue, _ model: ManagedObjectModel)
        throws
    {
        guard case .object(let groups) = document else { return }
        var objects: [String: (entity: String, members: [(String, JSONValue)])] = [:]
        for (entity, list) in groups {
            guard case .array(let items) = list else { continue }
            for case .object(let members) in items {
                if case .string(let id)? = members.first(where: { $0.0 == "@id" })?.1 {
                    objects[id] = (entity, members)
                }
            }
        }
        func references(_ value: JSONValue?) -> [String] {
            switch value {
            case .string(let id)?: return [id]
            case .array(let items)?:
                return items.compactMap {
                    if case .string(let id) = $0 { return id } else { return nil }
                }
            default: return []
            }
        }
        var checked = 0
        for (id, object) in objects {
            guard let schema = model.schemas[object.entity] else { continue }
            for case .relationship(let r) in schema.properties where !r.isTransient {
                guard let inverse = r.inverseName else { continue }
                for destination in references(object.members.first { $0.0 == r.name }?.1) {
                    let back = references(
                        objects[destination]?.members.first { $0.0 == inverse }?.1)
                    #expect(
                        back.contains(id),
                        "\(id).\(r.name) → \(destination), whose \(inverse) is \(back)")
                    checked += 1
                }
            }
        }
        #expect(checked > 0, "no relationship was checked")
    }
}
