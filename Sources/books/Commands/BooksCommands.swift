import CommandLineSupport

/// The commands of `books`, in the order `books help` lists them: the one list the root spec
/// (so the help, the manual page and the completion scripts) and the dispatch are made from.
/// A new command is a type in `Commands/` conforming to ``BooksCommand``, and a line here.
enum BooksCommands {
    /// Every command.
    static let all: [any BooksCommand.Type] = [
        SeedCommand.self,
        ListCommand.self,
        SearchCommand.self,
        AddCommand.self,
        ShowCommand.self,
        EditCommand.self,
        DeleteCommand.self,
        ImportCommand.self,
        ExportCommand.self,
        StatsCommand.self,
        HistoryCommand.self,
        UndoCommand.self,
        RedoCommand.self,
        CheckCommand.self,
        CompletionsCommand.self,
        ManCommand.self,
    ]

    /// The command called `name`, if one is.
    static func command(named name: String?) -> (any BooksCommand.Type)? {
        all.first { $0.name == name }
    }
}
