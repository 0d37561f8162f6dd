import CommandLineSupport
import Foundation
import Persistence

/// `persistence-tool store migrate <store> --model <path> [--version <name>] [--dry-run]`:
/// lightweight migration of a store to a model version, as `StoreMigrator` does it.
struct StoreMigrateCommand: PersistenceToolCommand {
    /// The store: a file path or a server URL.
    var storePath: String
    /// `--model`: the model bundle.
    var modelPath: String
    /// `--version`: the version to migrate to; nil for the current one.
    var targetVersion: String?
    /// `--dry-run`: change nothing.
    var dryRun: Bool

    /// `<store>`: the store file.
    static let store = Argument<String>("store", help: "The store file.")
    /// `--model <path>`: the model bundle.
    static let model = Option<String>(
        "model", valueName: "path",
        help: "The model: a .xcdatamodeld bundle (or a single .xcdatamodel).", isRequired: true)
    /// `--version <name>`: the version to migrate to.
    static let version = Option<String>(
        "version", valueName: "name",
        help: "The bundle's version to migrate to (default: the current one).")
    /// `--dry-run`: migrate a temporary copy only.
    static let dryRun = Flag("dry-run", help: "Print the steps and check the data; change nothing.")

    static let spec = PersistenceTool.spec(
        name: "migrate",
        abstract: "Migrate a store to a version of its model.",
        discussion: """
            Finds the version of the .xcdatamodeld bundle that wrote the store (by the version
            hashes the store records), infers the lightweight migration to --version (default:
            the bundle's current version), going through every version in between, and prints
            its steps; a step that deletes values starts with "DATA LOSS:", and the values lost
            are listed. The store is then copied to <store>.pre-migration and migrated in one
            transaction. With --dry-run the migration runs on a temporary copy and the store is
            not changed. A store already at the version is left as it is (exit 0). A change
            of a value transformer is found through the version the store records; its
            values are re-encoded, which needs both transformers registered, so this tool
            (which has none of an app's) shows the step and refuses it. A change that cannot
            be inferred, or data the new version refuses (a violated uniqueness constraint,
            an object with no value for an attribute made required), exits 65 with the reason
            and leaves the store byte-for-byte as it was; a missing store or model exits 66.
            A store on a PostgreSQL server is migrated in one transaction on the server, with
            no copy (a failure rolls it back whole); --dry-run runs it and rolls it back.
            """,
        arguments: [store], options: [model, version, dryRun])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool store migrate a.sqlite --model App.xcdatamodeld --dry-run",
            "Print the steps to the current version and check that the data fits, changing nothing."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {
        storePath = parsed[Self.store] ?? ""
        modelPath = parsed[Self.model] ?? ""
        targetVersion = parsed[Self.version]
        dryRun = parsed[Self.dryRun]
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let path = storePath
        try StoreCommands.requireStorePath(path)
        if ServerStoreURL.isServer(path) {
            return try Self.migrateServerStore(
                path, model: modelPath, version: targetVersion, dryRun: dryRun,
                output: &output)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw ToolError(code: .noInput, message: "error: There is no store at \(path).")
        }
        let migrator = try Self.makeMigrator(
            store: path, model: modelPath, version: targetVersion)
        do {
            let target = Self.targetName(migrator.destination)
            guard Self.printSteps(try migrator.plans(), of: path, target: target, output: &output) else {
                return .success
            }
            if dryRun {
                _ = try migrator.dryRun()
                output.print("Dry run: the data fits \(target); the store was not changed.")
            } else {
                try migrator.migrate()
                output.print(
                    "Migrated \(StoreCommands.shown(path)) to \(target). The store as it was before is at "
                        + "\(StoreMigrator.backupURL(for: migrator.storeURL).path).")
            }
            return .success
        } catch {
            // The same exit codes as every store command: 65 for a store refused.
            throw StoreCommands.failure(error, file: nil)
        }
    }

    /// "model version N", or "the model" for a model without a version name.
    static func targetName(_ model: ManagedObjectModel) -> String {
        model.versionIdentifier.map { "model version \($0)" } ?? "the model"
    }

    /// Prints each plan's steps and which values they lose; false, having said the store is
    /// already at `target`, when there are none.
    static func printSteps(_ plans: [MigrationPlan], of path: String, target: String, output: inout ToolOutput) -> Bool {
        guard !plans.isEmpty else {
            output.print("\(StoreCommands.shown(path)) is already at \(target); nothing to migrate.")
            return false
        }
        for plan in plans { output.print(plan.description) }
        let lost = plans.flatMap(\.steps).filter(\.losesData).map { step in
            step.property.map { "\(step.entity).\($0)" } ?? "every \(step.entity) object"
        }
        output.print(lost.isEmpty ? "No values will be lost." : "Values that will be lost: \(lost.joined(separator: ", ")).")
        return true
    }

    /// A migrator for a bundle's versions, or for a single model file (which can only
    /// tell that a store is already current).
    static func makeMigrator(store: String, model: String, version: String?) throws(ToolError) -> StoreMigrator {
        let storeURL = URL(fileURLWithPath: store)
        let modelURL = URL(fileURLWithPath: model)
        guard modelURL.pathExtension == "xcdatamodeld" else {
            let loaded = try ModelCommands.load(path: model, version: version)
            return StoreMigrator(storeURL: storeURL, destination: loaded, versions: [loaded])
        }
        do {
            return try StoreMigrator(storeURL: storeURL, modelBundle: modelURL, version: version)
        } catch {
            // Let the model loader name the failure with the tool's exit codes.
            _ = try ModelCommands.load(path: model, version: version)
            throw ToolError(code: .runtimeError, message: "error: \(error)")
        }
    }
}
