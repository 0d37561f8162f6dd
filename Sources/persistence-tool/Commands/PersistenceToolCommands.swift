import CommandLineSupport

/// The commands of `persistence-tool`, grouped as the command line nests them, in the order
/// its help lists them: the one list the root spec (so the help, the manual page and the
/// completion scripts) and the dispatch are made from. A new command is a type in
/// `Commands/` conforming to ``PersistenceToolCommand``, and a line here.
enum PersistenceToolCommands {
    /// Every command and group.
    static let all: [ToolCommandEntry] = [
        .group(
            "model", abstract: "Read, check and print Xcode model files.",
            commands: [
                ModelDumpCommand.self,
                ModelValidateCommand.self,
                ModelCodegenCommand.self,
            ]),
        .group(
            "store", abstract: "Create, fill, read and edit a store of any model.",
            commands: [
                StoreCreateCommand.self,
                StoreImportCommand.self,
                StoreExportCommand.self,
                StoreDeleteCommand.self,
                StoreCheckCommand.self,
                StoreMigrateCommand.self,
                StoreConvertCommand.self,
            ]),
        .command(CompletionsCommand.self),
        .command(ManCommand.self),
    ]

    /// Every command with its path below the root (`["store", "export"]`), in order.
    static var commands: [(path: [String], type: any PersistenceToolCommand.Type)] {
        all.flatMap { entry in
            switch entry {
            case .command(let type): [([type.name], type)]
            case .group(let group, _, let types): types.map { ([group, $0.name], $0) }
            }
        }
    }

    /// The command at `path`, nil for a group or a path that names none.
    static func command(atPath path: [String]) -> (any PersistenceToolCommand.Type)? {
        commands.first { $0.path == path }?.type
    }
}

/// One entry of ``PersistenceToolCommands/all``: a command, or a group of commands under a
/// name (`store`), which has no run of its own (named alone, it prints its help).
enum ToolCommandEntry: Sendable {
    /// A command directly below the root.
    case command(any PersistenceToolCommand.Type)
    /// A group: its name, its one-sentence abstract, and its commands.
    case group(String, abstract: String, commands: [any PersistenceToolCommand.Type])

    /// The entry as the shared framework's description, with its commands below a group.
    var spec: CommandSpec {
        switch self {
        case .command(let type):
            // Closures, not key paths to `documentedSpec`: a key path to a static property
            // through an existential metatype crashes the Swift 6.3 compiler.
            type.documentedSpec
        case .group(let name, let abstract, let types):
            CommandSpec(name: name, abstract: abstract, subcommands: types.map { $0.documentedSpec })
        }
    }
}
