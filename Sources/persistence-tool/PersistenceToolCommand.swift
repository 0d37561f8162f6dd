import CommandLineSupport

/// A command of `persistence-tool`: a ``CLICommand`` that runs with the tool's collected
/// output and fails with a ``ToolError`` (an exit code and its message).
///
/// Each command is one type in `Commands/` (`StoreExportCommand`, …) holding its spec,
/// examples and run; ``PersistenceToolCommands/all`` lists them, grouped as the command line
/// nests them (`store export`), and the root spec (so the help, the manual page and the
/// completion scripts) and the dispatch come from that list.
protocol PersistenceToolCommand: CLICommand where Context == ToolOutput {}
