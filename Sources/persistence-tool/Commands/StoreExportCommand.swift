import CommandLineSupport
import Foundation
import Persistence

/// `store export <store> [--model <path>] [--version <name>]`.
struct StoreExportCommand: PersistenceToolCommand {
    /// The store: a file path or a server URL.
    var store: String
    /// `--output`: the file to write, nil for standard output.
    var file: String?
    /// `--model` and `--version`.
    var model: ModelChoice

    /// `--output <file>`: a file instead of standard output.
    static let output = Option<String>(
        "output", valueName: "file",
        help: "Write the document to this file (replaced only when complete) instead of standard output.")

    static let spec = PersistenceTool.spec(
        name: "export",
        abstract: "Print every object of a store as JSON.",
        discussion: """
            One object with an array per entity (sub-entities under their own names), entities
            by name, objects by key; "@id" is "Entity/p<key>". To-one relationships are an @id
            or null, to-many an array of @ids (in order when ordered). Strings, URIs and UUIDs
            are strings; integers and floating-point numbers are numbers ("inf", "-inf" and
            "nan" as strings); Decimals are strings with every digit; Booleans true or false;
            Dates ISO 8601 in UTC; Binary and Transformable values base64 of the stored bytes.
            Transient attributes are left out, derived ones included. The store is not changed.
            Objects are written as they are read, so memory stays flat for any store size; the
            document goes to standard output, or to --output's file, only once it is complete:
            on an error nothing is printed and no file is left.
            """,
        arguments: [StoreCommands.store],
        options: [
            StoreCommands.storeModel, StoreCommands.version, output,
        ])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool store export a.sqlite --model A.xcdatamodeld --output a.json",
            "Write every object of a store to a JSON file, replaced only when complete."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {
        store = parsed[StoreCommands.store] ?? ""
        file = parsed[Self.output]
        model = ModelChoice(parsed)
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let path = store
        let loaded = try StoreCommands.loadModel(forStore: path, model)
        try StoreCommands.requireStore(path)
        if let file { try StoreCommands.checkOutputTarget(file, store: path) }
        // Read-only: export changes nothing (no sweep of external data, no index rebuild);
        // the library's reading connection leaves no -wal or -shm file behind.
        let container = try StoreCommands.openExisting(path, loaded, model, readOnly: true)
        defer { try? container.persistentStoreCoordinator.close() }
        try StoreCommands.exportStreaming(container.viewContext, to: file)
        return .success
    }
}
