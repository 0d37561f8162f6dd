import CommandLineSupport
import Foundation
import Persistence

/// `store check <store> --model <path> [--version <name>]`.
struct StoreCheckCommand: PersistenceToolCommand {
    /// The store: a file path or a server URL.
    var store: String
    /// `--model` and `--version`.
    var model: ModelChoice

    static let spec = PersistenceTool.spec(
        name: "check",
        abstract: "Check a store file for damage.",
        discussion: """
            Runs SQLite's integrity check, then checks the store against its model: the \
            version hashes it records, its search indexes, key counters, references between \
            objects and its external data files. Prints one line per problem, or that the \
            store is healthy: exit 0 when it is, 1 when it is damaged. Reads only. A store in Core \
            Data's layout is not checked (exit 1, saying so). Without \
            --version, a store written with another version of the --model bundle is checked \
            against that version. A missing store exits 66.
            """,
        arguments: [StoreCommands.store], options: [StoreCommands.model, StoreCommands.version])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool store check Books.sqlite --model Books.xcdatamodeld",
            "Check a store file for damage; exit 1 when it is damaged."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {
        store = parsed[StoreCommands.store] ?? ""
        model = ModelChoice(parsed)
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let path = store
        let loaded = try ModelCommands.load(
            path: model.path ?? "", version: model.version)
        try StoreCommands.requireStore(path)
        guard !ServerStoreURL.isServer(path) else {
            throw ToolError(
                code: .runtimeError,
                message: "error: store check reads a store file; a PostgreSQL server checks its own databases "
                    + "(amcheck)")
        }
        let url = URL(fileURLWithPath: path)
        // Core Data's layout has its own tables, triggers and counters, which the checks
        // below do not know: saying "damaged" of a healthy store would be wrong.
        guard !CoreDataStore.isCoreDataStore(at: url) else {
            throw ToolError(
                code: .runtimeError,
                message: "error: store check is not supported for stores in Core Data's layout (\(path)); "
                    + "it was left untouched (store export reads every object of it)")
        }
        var result: StoreCheck
        do { result = try StoreCheck.run(storeURL: url, model: loaded) } catch {
            throw StoreCommands.failure(error, file: nil)
        }
        // A store of another version of the bundle is checked against that version.
        let bundle = URL(fileURLWithPath: model.path ?? "")
        if result.problems.contains(where: { $0.contains("was written with a different model") }),
            model.version == nil, bundle.pathExtension == "xcdatamodeld",
            let names = try? ManagedObjectModel.versionNames(in: bundle)
        {
            for name in names {
                guard let candidate = try? ManagedObjectModel(contentsOf: bundle, version: name),
                    let other = try? StoreCheck.run(storeURL: url, model: candidate),
                    !other.problems.contains(where: { $0.contains("was written with a different model") })
                else { continue }
                result = other
                break
            }
        }
        guard !result.isHealthy else {
            output.print("\(StoreCommands.shown(path)) is healthy.")
            return .success
        }
        for problem in result.problems { output.print(problem) }
        let count = result.problems.count
        throw ToolError(
            code: .runtimeError,
            message: "error: \(path) is damaged: \(count) \(count == 1 ? "problem" : "problems") found")
    }
}
