import CommandLineSupport
import Foundation
import Persistence

/// `model dump <path> [--json] [--version <name>]`.
struct ModelDumpCommand: PersistenceToolCommand {
    /// The model file.
    var path: String
    /// `--version`: the bundle's version to read.
    var version: String?
    /// `--json`: JSON instead of text.
    var json: Bool

    /// `--json`: print JSON instead of text.
    static let json = Flag("json", help: "Print JSON instead of text.")

    static let spec = PersistenceTool.spec(
        name: "dump",
        abstract: "Print a model's entities with their own properties.",
        discussion: """
            Entities are sorted by name; each lists its own (not inherited) attributes and
            relationships, its uniqueness constraints, its indexes and its version hash. With
            --json the output is one object: {"entities": [{"name", "className", "parent",
            "abstract", "versionHash", "attributes": [{"name", "type", "optional", "transient",
            "derived", "derivation", "defaultValue", "versionHash"}], "relationships": [{"name",
            "destination", "inverse", "deleteRule", "toMany", "ordered", "minCount", "maxCount",
            "optional", "spotlightIndexingEnabled"}], "uniquenessConstraints": [[names]], "indexes": [{"name",
            "properties"}]}]}. Types and delete rules are spelled as in the file ("Integer 16",
            "Nullify"); defaultValue is the default as written; absent values are null. The
            model is printed as read, valid or not.
            """,
        arguments: [ModelCommands.path],
        options: [
            json, ModelCommands.version,
        ])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool model dump Books.xcdatamodeld --json",
            "Print a model's entities with their own properties, as JSON."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {
        path = parsed[ModelCommands.path] ?? ""
        version = parsed[ModelCommands.version]
        json = parsed[Self.json]
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let model = try ModelCommands.load(path: path, version: version)
        let dump = ModelDump(model: model)
        output.print(json ? dump.json() : dump.text())
        return .success
    }
}
