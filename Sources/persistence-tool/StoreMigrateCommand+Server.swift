import CommandLineSupport
import Foundation
import Persistence

extension StoreMigrateCommand {
    /// `store migrate` for a store on a server (`postgresql://…`): the migration runs in one
    /// transaction on the server, which rolls it back whole on failure, so no copy is made;
    /// `--dry-run` runs it and rolls it back.
    static func migrateServerStore(
        _ path: String, model: String, version: String?, dryRun: Bool, output: inout ToolOutput
    ) throws(ToolError) -> ExitCode {
        guard let url = URL(string: path) else { throw .usage("'\(path)' is not a valid store URL") }
        let (destination, versions) = try models(model, version: version)
        do {
            let plans = try PersistentContainer.migrateServerStore(
                url: url, to: destination, versions: versions, dryRun: dryRun)
            let target = destination.versionIdentifier.map { "model version \($0)" } ?? "the model"
            guard !plans.isEmpty else {
                output.print("\(path) is already at \(target); nothing to migrate.")
                return .success
            }
            for plan in plans { output.print(plan.description) }
            let lost = plans.flatMap(\.steps).filter(\.losesData).map { step in
                step.property.map { "\(step.entity).\($0)" } ?? "every \(step.entity) object"
            }
            output.print(
                lost.isEmpty ? "No values will be lost." : "Values that will be lost: \(lost.joined(separator: ", ")).")
            output.print(
                dryRun
                    ? "Dry run: the data fits \(target); the migration was rolled back and the store was not changed."
                    : "Migrated \(path) to \(target) in one transaction.")
            return .success
        } catch {
            throw StoreCommands.failure(error, file: nil)
        }
    }

    /// The destination model and the versions a store may have been written with: a
    /// bundle's versions, or a single model file (which can only tell that a store is
    /// already current).
    private static func models(_ model: String, version: String?) throws(ToolError)
        -> (destination: ManagedObjectModel, versions: [ManagedObjectModel])
    {
        let modelURL = URL(fileURLWithPath: model)
        guard modelURL.pathExtension == "xcdatamodeld" else {
            let loaded = try ModelCommands.load(path: model, version: version)
            return (loaded, [loaded])
        }
        do {
            let names = try ManagedObjectModel.versionNames(in: modelURL)
            let versions = try names.map { try ManagedObjectModel(contentsOf: modelURL, version: $0) }
            let chosen = try version ?? ManagedObjectModel.currentVersionName(in: modelURL) ?? names.last ?? ""
            guard let destination = zip(names, versions).first(where: { $0.0 == chosen })?.1 else {
                return (try ModelCommands.load(path: model, version: version), versions)
            }
            return (destination, versions)
        } catch {
            // Let the model loader name the failure with the tool's exit codes.
            _ = try ModelCommands.load(path: model, version: version)
            throw ToolError(code: .runtimeError, message: "error: \(error)")
        }
    }
}
