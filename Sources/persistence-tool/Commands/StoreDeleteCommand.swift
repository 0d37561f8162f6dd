import CommandLineSupport
import Foundation
import Persistence

/// `store delete <store> [--model <path>] --id <id> … [--version <name>]`.
struct StoreDeleteCommand: PersistenceToolCommand {
    /// The store: a file path or a server URL.
    var store: String
    /// The @ids of the objects to delete, as given.
    var ids: [String]
    /// `--model` and `--version`.
    var model: ModelChoice

    /// `--id <id>`, given once per object.
    static let id = Option<[String]>(
        repeating: "id", valueName: "id",
        help: "An object's @id as store export writes it (Entity/p<key>).", isRequired: true)

    static let spec = PersistenceTool.spec(
        name: "delete",
        abstract: "Delete objects by their exported @id, applying delete rules.",
        discussion: """
            Deletes the objects in one save; Cascade rules delete further objects, Nullify rules
            clear references. When a Deny rule refuses, a relationship's count would break its
            limits, or an @id names no object, nothing is deleted and the exit code is 65.
            Prints every deleted object's @id.
            """,
        arguments: [StoreCommands.store],
        options: [
            StoreCommands.storeModel, StoreCommands.version, id,
        ])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool store delete a.sqlite --model App.xcdatamodeld --id Book/p1",
            "Delete one object, applying its delete rules."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {
        store = parsed[StoreCommands.store] ?? ""
        ids = parsed[Self.id] ?? []
        model = ModelChoice(parsed)
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let path = store
        let loaded = try StoreCommands.loadModel(forStore: path, model)
        // Every @id's form is checked before the store is opened.
        for id in ids {
            do { _ = try StoreArchive.parseArchiveID(id) } catch {
                throw StoreCommands.failure(error, file: nil)
            }
        }
        try StoreCommands.requireStore(path)
        let container = try StoreCommands.openExisting(path, loaded, model)
        defer { try? container.persistentStoreCoordinator.close() }
        let deleted: [ObjectID]
        do {
            deleted = try StoreArchive.deleteObjects(
                withIDs: ids, from: container.viewContext)
        } catch {
            throw StoreCommands.failure(error, file: nil)
        }
        output.print(
            "Deleted \(deleted.count) \(deleted.count == 1 ? "object" : "objects"): "
                + deleted.map(\.description).joined(separator: ", ") + ".")
        return .success
    }
}
