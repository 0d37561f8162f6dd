import CommandLineSupport
import Foundation
import Persistence

/// `store delete <store> [--model <path>] --id <id> … [--version <name>]`.
struct StoreDeleteCommand: PersistenceToolCommand {
    /// The values given on the command line, which the shared steps of `StoreCommands` and
    /// `ModelCommands` read too (`--model`, `--version`).
    let arguments: ParsedArguments

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

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) { arguments = parsed }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let path = arguments[StoreCommands.store] ?? ""
        let loaded = try StoreCommands.loadModel(forStore: path, arguments)
        // Every @id's form is checked before the store is opened.
        for id in arguments[Self.id] ?? [] {
            do { _ = try StoreArchive.parseArchiveID(id) } catch {
                throw StoreCommands.failure(error, file: nil)
            }
        }
        try StoreCommands.requireStore(path)
        let container = try StoreCommands.openExisting(path, loaded, arguments)
        defer { try? container.persistentStoreCoordinator.close() }
        let deleted: [ObjectID]
        do {
            deleted = try StoreArchive.deleteObjects(
                withIDs: arguments[Self.id] ?? [], from: container.viewContext)
        } catch {
            throw StoreCommands.failure(error, file: nil)
        }
        output.print(
            "Deleted \(deleted.count) \(deleted.count == 1 ? "object" : "objects"): "
                + deleted.map(\.description).joined(separator: ", ") + ".")
        return .success
    }
}
