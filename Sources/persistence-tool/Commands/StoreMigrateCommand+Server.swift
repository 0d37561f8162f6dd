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
        // The migrator only chooses the models here: the server store migrates itself.
        let models = try makeMigrator(store: path, model: model, version: version)
        do {
            let plans = try PersistentContainer.migrateServerStore(
                url: url, to: models.destination, versions: models.versions, dryRun: dryRun)
            let target = targetName(models.destination)
            guard printSteps(plans, of: path, target: target, output: &output) else { return .success }
            output.print(
                dryRun
                    ? "Dry run: the data fits \(target); the migration was rolled back and the store was not changed."
                    : "Migrated \(StoreCommands.shown(path)) to \(target) in one transaction.")
            return .success
        } catch {
            throw StoreCommands.failure(error, file: nil)
        }
    }
}
