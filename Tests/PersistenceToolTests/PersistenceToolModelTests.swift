import Foundation
import PersistenceTestSupport
import ProcessTestSupport
import Testing

import Persistence

/// `persistence-tool model …`, run as the built binary: stdout, stderr and exit codes.
@Suite struct PersistenceToolModelTests {
    // MARK: - validate

    @Test(arguments: ModelFixtures.realModels)
    func realModelsAreValid(_ fixture: ModelFixture) throws {
        let result = try ToolRun(
            ["model", "validate", fixture.url.path] + fixture.versionArguments)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "valid\n")
        #expect(result.stderr == "")
    }

    @Test func warningsGoToStandardErrorAndTheModelIsStillValid() throws {
        let path = try Self.write(
            ManagedObjectModel {
                Entity("Node") {
                    Relationship("next", to: "Node")
                    Relationship("previous", to: "Node")
                }
            })
        defer { Self.remove(path) }
        let result = try ToolRun(["model", "validate", path])
        #expect(result.status == 0)
        #expect(result.stdout == "valid\n")
        #expect(
            result.stderrLines == [
                "warning: Node.next: has no inverse; without one, changes on the Node side are not reflected here",
                "warning: Node.previous: has no inverse; without one, changes on the Node side are not reflected here",
            ])
    }

    @Test func everyProblemIsAnErrorLineAndTheStatusIs65() throws {
        let path = try Self.write(
            ManagedObjectModel {
                Entity("Book") {
                    Attribute("description", .string)
                    Attribute("year", .integer16, default: "99999")
                    Relationship("author", to: "Autor", inverse: "books")
                }
            })
        defer { Self.remove(path) }
        let result = try ToolRun(["model", "validate", path])
        #expect(result.status == 65)
        #expect(result.stdout == "")
        #expect(
            result.stderrLines == [
                "error: Book.description: collides with ManagedObject's member 'description'; choose another name",
                "error: Book.year: has a default value that is not valid for Integer 16: 99999 is outside Integer 16's range -32768…32767",
                "error: Book.author: names an unknown destination entity 'Autor'",
            ])
    }

    @Test func malformedFileIs65WithTheLine() throws {
        let contents = try ModelFixtures.writeContents("<model>\n  <entity name=\"A\">\n</model>\n")
        defer { ModelFixtures.removeContents(contents) }
        for command in ["validate", "dump"] {
            let result = try ToolRun(["model", command, contents.path])
            #expect(result.status == 65)
            #expect(result.stderrLines.count == 1)
            #expect(
                result.stderr.hasPrefix("error: \(contents.path): line 3: malformed XML"),
                "\(result)")
        }
    }

    @Test func missingFileOrVersionIs66() throws {
        let missing = try ToolRun(["model", "validate", "/nonexistent/Books.xcdatamodeld"])
        #expect(missing.status == 66)
        #expect(missing.stdout == "")
        #expect(
            missing.stderr
                == "error: There is no model at /nonexistent/Books.xcdatamodeld: no such file or directory.\n"
        )
        let version = try ToolRun([
            "model", "dump", ModelFixtures.sampleBundle.path, "--version", "Nope",
        ])
        #expect(version.status == 66)
        #expect(version.stderr.hasPrefix("error: ") && version.stderr.contains("no version 'Nope'"))
    }

    @Test func badArgumentsAre64WithOneLinePointingToHelp() throws {
        let cases: [([String], String)] = [
            (["model", "validate"], "Error: Missing expected argument '<path>'"),
            (["model", "validate", "a", "b"], "Error: Unexpected argument 'b'"),
            (
                ["model", "dump", "x", "--jsn"],
                "Error: Unknown option '--jsn'. Did you mean '--json'?"
            ),
            (["model", "dump", "x", "--version"], "Error: Missing value for '--version <name>'"),
            (
                ["model", "vaildate", "x"],
                "Error: Unknown command 'vaildate'. Did you mean 'validate'?"
            ),
            (["modle"], "Error: Unknown command 'modle'. Did you mean 'model'?"),
        ]
        for (arguments, message) in cases {
            let result = try ToolRun(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stdout == "")
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(result.stderrLines.first?.hasPrefix(message) == true, "\(result)")
            #expect(result.stderr.contains(" See 'persistence-tool help"), "\(result)")
        }
        let dumpUsage = try ToolRun(["model", "dump"])
        #expect(
            dumpUsage.stderr
                == "Error: Missing expected argument '<path>'. See 'persistence-tool help model dump'.\n")
    }

    @Test func helpIsPrintedOnRequest() throws {
        for arguments in [
            ["--help"], ["model", "--help"], ["help", "model", "validate"],
            ["model", "validate", "-h"],
        ] {
            let result = try ToolRun(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("OVERVIEW: "))
            #expect(result.stdout.contains("USAGE: persistence-tool"))
            #expect(result.stderr == "")
        }
        #expect(try ToolRun(["model", "--help"]).stdout.contains("SUBCOMMANDS:\n  dump"))
        #expect(
            try ToolRun(["--version"]).stdout == "persistence-tool \(PersistenceVersion.string)\n")
    }

    // MARK: - dump

    @Test(arguments: ModelFixtures.realModels)
    func jsonDumpHasTheFilesEntitiesAndProperties(_ fixture: ModelFixture) throws {
        let result = try ToolRun(
            ["model", "dump", fixture.url.path, "--json"] + fixture.versionArguments)
        #expect(result.status == 0 && result.stderr == "")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Array(json.keys) == ["entities"])
        let entities = try #require(json["entities"] as? [[String: Any]])
        let counts = ModelFixtures.elementCounts(
            in: try String(contentsOf: fixture.contentsURL, encoding: .utf8))
        #expect(entities.count == counts.entities)
        let attributes = entities.flatMap { $0["attributes"] as? [[String: Any]] ?? [] }
        let relationships = entities.flatMap { $0["relationships"] as? [[String: Any]] ?? [] }
        #expect(
            attributes.count == counts.attributes && relationships.count == counts.relationships)
        let names = entities.compactMap { $0["name"] as? String }
        #expect(names == names.sorted())
        let model = try fixture.load()
        for entity in entities {
            #expect(
                Set(entity.keys) == [
                    "name", "className", "parent", "abstract", "versionHash", "attributes",
                    "relationships", "uniquenessConstraints", "indexes",
                ])
            let name = try #require(entity["name"] as? String)
            #expect(
                entity["versionHash"] as? String
                    == model.entityVersionHashesByName[name].map(VersionHash.hex))
        }
        for attribute in attributes {
            #expect(
                Set(attribute.keys) == [
                    "name", "type", "optional", "transient", "derived", "derivation",
                    "defaultValue", "versionHash",
                ])
            #expect(AttributeType(rawValue: attribute["type"] as? String ?? "") != nil)
            #expect((attribute["versionHash"] as? String)?.count == 64)
        }
        for relationship in relationships {
            #expect(
                Set(relationship.keys) == [
                    "name", "destination", "inverse", "deleteRule", "toMany", "ordered",
                    "minCount", "maxCount", "optional", "spotlightIndexingEnabled",
                ])
            #expect(DeleteRule(rawValue: relationship["deleteRule"] as? String ?? "") != nil)
        }
    }

    @Test func jsonDumpSpellsValuesAsTheFileDoes() throws {
        let result = try ToolRun(["model", "dump", ModelFixtures.moody.path, "--json"])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let entities = try #require(json["entities"] as? [[String: Any]])
        let region = try #require(entities.first { $0["name"] as? String == "Region" })
        #expect(region["parent"] is NSNull && region["abstract"] as? Bool == true)
        #expect(region["className"] as? String == "MoodyModel.Region")
        #expect(
            region["uniquenessConstraints"] as? [[String]] == [
                ["numericISO3166Code", "uniquenessDummy"]
            ])
        let indexes = try #require(region["indexes"] as? [[String: Any]])
        #expect(indexes.count == 1 && indexes[0]["name"] is NSNull)
        #expect(indexes[0]["properties"] as? [String] == ["markedForDeletionDate", "updatedAt"])
        let attributes = try #require(region["attributes"] as? [[String: Any]])
        let code = try #require(attributes.first { $0["name"] as? String == "numericISO3166Code" })
        #expect(code["type"] as? String == "Integer 16" && code["defaultValue"] as? String == "0")
        #expect(code["optional"] as? Bool == false && code["derivation"] is NSNull)
        let country = try #require(entities.first { $0["name"] as? String == "Country" })
        #expect((country["attributes"] as? [Any])?.isEmpty == true)
        let continent = try #require((country["relationships"] as? [[String: Any]])?.first)
        #expect(
            continent["name"] as? String == "continent"
                && continent["deleteRule"] as? String == "Nullify")
        #expect(continent["toMany"] as? Bool == false && continent["maxCount"] as? Int == 1)
        #expect(
            continent["inverse"] as? String == "countries"
                && continent["destination"] as? String == "Continent")
    }

    @Test(arguments: ModelFixtures.realModels)
    func textDumpHasOneBlockPerEntityWithItsProperties(_ fixture: ModelFixture) throws {
        let result = try ToolRun(["model", "dump", fixture.url.path] + fixture.versionArguments)
        #expect(result.status == 0 && result.stderr == "")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let counts = ModelFixtures.elementCounts(
            in: try String(contentsOf: fixture.contentsURL, encoding: .utf8))
        #expect(
            lines.filter { $0.hasPrefix("entity ") || $0.hasPrefix("abstract entity ") }.count
                == counts.entities)
        #expect(lines.filter { $0.hasPrefix("  attribute ") }.count == counts.attributes)
        #expect(lines.filter { $0.hasPrefix("  relationship ") }.count == counts.relationships)
        #expect(lines.first?.hasPrefix("model: \(counts.entities) entities") == true)
    }

    @Test func textDumpReadsWell() throws {
        let result = try ToolRun(["model", "dump", ModelFixtures.moody.path])
        #expect(
            result.stdout.contains(
                """
                abstract entity Region (class MoodyModel.Region)
                  version hash: a32b40c363decc788b44ce61e34145775664cbef3122a90e18d7dc08ff04058f
                  attribute markedForDeletionDate: Date, optional
                  attribute numberOfMoods: Integer 64, default 0
                """))
        #expect(
            result.stdout.contains(
                "  relationship continent: to-one Continent, optional, inverse countries, Nullify\n"
            ))
        #expect(result.stdout.contains("  unique (numericISO3166Code, uniquenessDummy)\n"))
        #expect(result.stdout.contains("entity Continent : Region (class MoodyModel.Continent)\n"))
    }

    // MARK: - Helpers

    /// Writes `model` to a new `.xcdatamodel` and returns its path.
    private static func write(_ model: ManagedObjectModel) throws -> String {
        let url = try ModelFixtures.temporaryDirectory().appendingPathComponent("Tool.xcdatamodel")
        try model.write(to: url)
        return url.path
    }

    /// Removes the temporary directory that `write` made for the model at `path`.
    private static func remove(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }
}

extension ModelFixture {
    /// `--version NAME` for a bundle version, else nothing.
    var versionArguments: [String] { version.map { ["--version", $0] } ?? [] }
}
