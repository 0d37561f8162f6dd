import CommandLineSupport

/// The model a command was told to read or open a store with: `--model <path>` and
/// `--version <name>`, as given.
struct ModelChoice: Equatable, Sendable {
    /// `--model`: a `.xcdatamodeld` bundle, a `.xcdatamodel` or its contents file; nil when
    /// not given (a store Core Data wrote then opens with the model it keeps).
    var path: String?
    /// `--version`: a version of the bundle; nil for the store's own, else the current one.
    var version: String?

    /// The values given to `--model` and `--version` (every command spells them so, whether
    /// `--model` is required or not).
    init(_ parsed: ParsedArguments) {
        path = parsed[StoreCommands.storeModel]
        version = parsed[StoreCommands.version]
    }
}
