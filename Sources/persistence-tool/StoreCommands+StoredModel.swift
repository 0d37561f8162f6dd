import CommandLineSupport
import Foundation
import Persistence

extension StoreCommands {
    /// `--model <path>` of the commands that open an existing store (`import`, `export`,
    /// `delete`, `convert`): optional, since a store Core Data wrote keeps the model it was
    /// written with (its `Z_MODELCACHE`). `store create`, which makes a store, needs `model`.
    static let storeModel = Option<String>(
        "model", valueName: "path",
        help: "The store's model: a .xcdatamodeld, a .xcdatamodel or its contents file "
            + "(default for a store Core Data wrote: the model it keeps).")

    /// The model to open the existing store at `path` with: the `--model` file when one is
    /// given (a store that does not match it is then refused as ever), else, for a store
    /// Core Data wrote, the model compiled into it.
    ///
    /// Without `--model`, any other store (a Persistence store, a server's database, a path
    /// with no file) is the usage error it always was (64); a Core Data store whose compiled
    /// model is missing or cannot be read is one line naming the store and the problem (65),
    /// the file untouched.
    static func loadModel(forStore path: String, _ choice: ModelChoice) throws(ToolError) -> ManagedObjectModel {
        if let file = choice.path {
            return try ModelCommands.load(path: file, version: choice.version)
        }
        try requireStorePath(path)
        let url = URL(fileURLWithPath: path)
        guard !ServerStoreURL.isServer(path), CoreDataStore.isCoreDataStore(at: url) else {
            throw .usage("Missing expected argument '--model <path>' (only a store Core Data wrote opens without it)")
        }
        if choice.version != nil {
            throw .usage("'--version' names a version of the '--model' bundle; give '--model' with it")
        }
        do { return try CoreDataStore.storedModel(at: url) } catch { throw failure(error, file: nil) }
    }
}
