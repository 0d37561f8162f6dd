import CommandLineSupport

/// The command line of `persistence-codegen`, declared with the shared framework as
/// `books` and `persistence-tool` declare theirs: the parser, the help, the "Did you mean"
/// suggestions and the usage errors are theirs, and every value is read back through the
/// typed key that declared it (`parsed[CodegenCommand.output]`).
///
/// The build plugin runs `persistence-codegen <model> --single-file <file>`.
enum CodegenCommand {
    /// `<model>`: the model to read.
    static let model = Argument<String>(
        "model",
        help: "A .xcdatamodeld bundle, a .xcdatamodel directory or its contents file.")

    /// `--output <dir>`: write a file per class into this directory.
    static let output = Option<String>(
        "output", valueName: "dir",
        help: "The directory to write the files into (created if missing).")

    /// `--single-file <file>`: write all the code into one file (the build plugin's way).
    static let singleFile = Option<String>(
        "single-file", valueName: "file",
        help: "Write all the code into this one file instead (the build plugin's way).")

    /// `--version <name>`: the version of a `.xcdatamodeld` bundle to read.
    static let version = Option<String>(
        "version", valueName: "name",
        help: "The version of a .xcdatamodeld bundle (default: the current one).")

    /// The tool, one command without subcommands.
    static let root = CommandSpec(
        name: "persistence-codegen",
        abstract: "Generate Swift classes from an Xcode model, as Xcode's Codegen does.",
        discussion: """
            Entities with Codegen "Class Definition" get <Class>+Class.swift and \
            <Class>+Properties.swift; "Category/Extension" gets only <Class>+Properties.swift; \
            "Manual/None" gets nothing. <Model>+Model.swift lists the classes. Give exactly \
            one of --output and --single-file. Unchanged files are not rewritten.
            """,
        arguments: [model], options: [output, singleFile, version])

    /// Where the generated code goes.
    enum Destination: Equatable {
        /// A file per class in this directory.
        case directory(String)
        /// All the code in this one file.
        case singleFile(String)
    }

    /// What to generate: the parsed command line, checked.
    struct Request: Equatable {
        /// The path of the model, as given.
        var model: String
        /// The version of a bundle to read; `nil` for its current one.
        var version: String?
        /// Where the code goes.
        var destination: Destination
    }

    /// What the command line asks for.
    enum Outcome: Equatable {
        /// Generate the code the request describes.
        case generate(Request)
        /// Print this help text and exit 0.
        case help(String)
    }

    /// Reads the arguments (without the program name).
    ///
    /// - Throws: ``UsageError`` for a command line the parser refuses, and for one that gives
    ///   neither or both of `--output` and `--single-file`.
    static func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
        let parser = CommandLineParser(root: root)
        switch try parser.parse(arguments) {
        case .help(let path):
            return .help(HelpFormatter(root: root).help(forCommandPath: path))
        case .version:
            // Only a root flag called `version` asks for this, and `--version` here takes a
            // name: not reached, answered with the help.
            return .help(HelpFormatter(root: root).help(forCommandPath: []))
        case .run(let parsed):
            let destination: Destination
            switch (parsed[output], parsed[singleFile]) {
            case (let directory?, nil): destination = .directory(directory)
            case (nil, let file?): destination = .singleFile(file)
            default:
                throw parser.error(
                    .exactlyOneOf([output.spec.displayName, singleFile.spec.displayName]),
                    path: [])
            }
            return .generate(
                Request(
                    model: parsed[model] ?? "", version: parsed[version],
                    destination: destination))
        }
    }
}
