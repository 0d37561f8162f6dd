import CommandLineSupport
import Foundation
import Persistence

/// `store import <store> <file> [--model <path>] [--version <name>]`.
struct StoreImportCommand: PersistenceToolCommand {
    /// The store: a file path or a server URL.
    var store: String
    /// The JSON file, or `-` for standard input.
    var file: String
    /// `--model` and `--version`.
    var model: ModelChoice

    /// `<file>`: the JSON file to import.
    static let file = Argument<String>(
        "file", help: "The JSON file to import; - for standard input.")

    static let spec = PersistenceTool.spec(
        name: "import",
        abstract: "Add the objects of a JSON file to a store, in one save.",
        discussion: """
            The file holds {"Entity": [{"@id": "local id", "attribute": value, "toOne": "id",
            "toMany": ["id", …]}, …], …}, as store export writes it; @id values are local to
            the file. Relationships may be given on one side only: inverses are filled in.
            Derived attributes are recomputed and transient ones ignored. All or nothing: on
            bad data (exit 65, naming the JSON path and @id) or a failed validation (every
            failure listed) the store is left unchanged. A missing store or file exits 66.
            """,
        arguments: [StoreCommands.store, file],
        options: [StoreCommands.storeModel, StoreCommands.version])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool store import a.sqlite objects.json --model App.xcdatamodeld",
            "Add the objects of a JSON file to a store, in one save."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {
        store = parsed[StoreCommands.store] ?? ""
        file = parsed[Self.file] ?? ""
        model = ModelChoice(parsed)
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let path = store
        let loaded = try StoreCommands.loadModel(forStore: path, model)
        let document = try StoreCommands.readDocument(file)
        try StoreCommands.requireStore(path)
        let container = try StoreCommands.openExisting(path, loaded, model)
        defer { try? container.persistentStoreCoordinator.close() }
        let objects: [ManagedObject]
        do {
            objects = try StoreArchive.importDocument(document, into: container.viewContext)
        } catch {
            throw StoreCommands.failure(error, file: file)
        }
        var counts: [String: Int] = [:]
        for object in objects { counts[object.entityName, default: 0] += 1 }
        let detail = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
            separator: ", ")
        output.print(
            "Imported \(objects.count) \(objects.count == 1 ? "object" : "objects") into \(StoreCommands.shown(path))"
                + (detail.isEmpty ? "." : " (\(detail))."))
        return .success
    }
}
