import CommandLineSupport
import Foundation
import Persistence

#if canImport(Glibc)
    import Glibc
#endif

/// `store create <store> --model <path> [--version <name>]`.
struct StoreCreateCommand: PersistenceToolCommand {
    /// The store: a file path or a server URL.
    var store: String
    /// `--model` and `--version`.
    var model: ModelChoice

    static let spec = PersistenceTool.spec(
        name: "create",
        abstract: "Create an empty store for a model.",
        discussion: """
            Creates the file with one table per root entity and records the model's version
            hashes. The file must not exist yet. An invalid model exits 65 and creates nothing.
            """,
        arguments: [StoreCommands.store], options: [StoreCommands.model, StoreCommands.version])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool store create Books.sqlite --model Books.xcdatamodeld",
            "Create an empty store for a model."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {
        store = parsed[StoreCommands.store] ?? ""
        model = ModelChoice(parsed)
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let path = store
        try StoreCommands.requireStorePath(path)
        let loaded = try ModelCommands.load(
            path: model.path ?? "", version: model.version)
        if ServerStoreURL.isServer(path) {
            // A database: the store is made in it (or found there) by opening it.
            let container = try StoreCommands.open(path, loaded)
            try? container.persistentStoreCoordinator.close()
            output.print("Created \(StoreCommands.shown(path)) for \(loaded.entities.count) entities.")
            return .success
        }
        // The name is claimed atomically (O_EXCL), so two creates cannot both succeed, and
        // released again if the store cannot be made: a failed create leaves no file, and
        // a retry does not find one "already there".
        let claimed = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if claimed < 0 {
            let code = errno
            if code == EEXIST || FileManager.default.fileExists(atPath: path) {
                throw ToolError(
                    code: .runtimeError,
                    message: "error: \(path) already exists; store create makes a new store")
            }
            if code == ENOENT {
                throw StoreCommands.failure(
                    StoreError.missingDirectory(path: StoreFile.directory(of: path)), file: nil)
            }
            throw ToolError(
                code: .runtimeError,
                message: "error: \(path) can't be created: \(String(cString: strerror(code)))")
        }
        Glibc.close(claimed)
        let container: PersistentContainer
        do { container = try StoreCommands.openContainer(path, loaded, readOnly: false) } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            throw StoreCommands.failure(error, file: nil)
        }
        try? container.persistentStoreCoordinator.close()
        let count = loaded.entities.count
        output.print("Created \(StoreCommands.shown(path)) for \(count) \(count == 1 ? "entity" : "entities").")
        return .success
    }
}
