import CommandLineSupport
import Foundation
import Persistence
import PersistenceCoreDataStore

#if canImport(Glibc)
    import Glibc
#endif

/// `persistence-tool store convert <source> <destination> [--model <path>] [--version <name>]`:
/// copies the objects of a store Core Data wrote into a new Persistence store, and those of a
/// Persistence store into a new store in Core Data's layout.
struct StoreConvertCommand: PersistenceToolCommand {
    /// The store to copy.
    var sourcePath: String
    /// The new store's file.
    var destinationPath: String
    /// `--model` and `--version`.
    var model: ModelChoice

    static let source = Argument<String>("source", help: "The store to copy: a Core Data or a Persistence store.")
    static let destination = Argument<String>("destination", help: "The new store's file; it must not exist.")

    static let spec = PersistenceTool.spec(
        name: "convert",
        abstract: "Copy a Core Data store into a new Persistence store, or back.",
        discussion: """
            Opens <source> read-only with the model that wrote it (or another version of the
            bundle that matches it; without --model, a store Core Data wrote opens with the
            model it keeps) and copies every object, a page at a time (memory follows the
            page, not the store), into a new store at <destination> of the other kind: a store Core Data wrote becomes a Persistence
            store, a Persistence store becomes a store in Core Data's layout (Z tables,
            Z_PRIMARYKEY, and Z_METADATA with the model's version hashes) that Core Data
            opens. Every value is copied as stored, relationships and the order of ordered
            ones kept, and each object keeps its key. The source is not changed. A destination
            that exists is refused; the copy is made in a hidden file beside it and renamed
            into place at the end, so that on any error (or an interruption) no destination
            file is left.
            """,
        arguments: [source, destination], options: [StoreCommands.storeModel, StoreCommands.version])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool store convert App.sqlite Books.sqlite",
            "Copy a store Core Data wrote, with the model it keeps, into a new Persistence store."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {
        sourcePath = parsed[Self.source] ?? ""
        destinationPath = parsed[Self.destination] ?? ""
        model = ModelChoice(parsed)
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let (from, to) = (sourcePath, destinationPath)
        try StoreCommands.requireStore(from)
        try StoreCommands.requireStorePath(to)
        let loaded = try StoreCommands.loadModel(forStore: from, model)
        let fromCoreData = CoreDataStore.isCoreDataStore(at: URL(fileURLWithPath: from))
        if FileManager.default.fileExists(atPath: to) {
            throw ToolError(code: .runtimeError, message: "error: \(to) already exists; store convert makes a new store")
        }
        let sourceContainer = try StoreCommands.openExisting(from, loaded, model, readOnly: true)
        defer { try? sourceContainer.persistentStoreCoordinator.close() }
        // The copy is written to a hidden file beside the destination, renamed into place
        // only once every object and link is in it: a copy that fails, or is killed, never
        // leaves a file at the destination.
        let work = ConvertWorkFile(destination: to)
        work.removedOnSignals()
        defer { work.restoringSignals() }
        let copied: Int
        do {
            let model = sourceContainer.model
            // A Core Data store is made first; opening it then finds its Z tables.
            if !fromCoreData { try CoreDataStore.create(model: model, at: URL(fileURLWithPath: work.path)) }
            let created = try StoreCommands.open(work.path, model)
            do {
                copied = try StoreCopier(
                    from: sourceContainer.persistentStoreCoordinator, to: created.persistentStoreCoordinator
                ).copy()
            } catch {
                try? created.persistentStoreCoordinator.close()
                throw error
            }
            try created.persistentStoreCoordinator.close()
            try work.moveIntoPlace()
        } catch {
            work.remove()
            throw work.relabeled(StoreCommands.failure(error, file: nil))
        }
        output.print("Copied \(copied) \(copied == 1 ? "object" : "objects") from \(StoreCommands.shown(from)) into \(StoreCommands.shown(to)).")
        return .success
    }
}
