import CommandLineSupport
import Foundation
import Persistence
import PersistenceCodegen

/// `model codegen <path> --output <dir> [--version <name>]`: the same generator as the
/// `persistence-codegen` executable and the build plugin.
struct ModelCodegenCommand: PersistenceToolCommand {
    /// The model file.
    var path: String
    /// `--version`: the bundle's version to read.
    var version: String?
    /// `--output`: the directory to write into.
    var directory: String
    /// `--all`: a class for every entity.
    var generatesAll: Bool

    /// `--all`: entities whose Codegen is Manual/None get a class too.
    static let all = Flag(
        "all", help: "Generate a class for every entity, those whose Codegen is Manual/None too (as Class Definition).")

    /// `--output <dir>`: where the files go.
    static let output = Option<String>(
        "output", valueName: "dir", help: "The directory to write into (created if missing).",
        isRequired: true)

    static let spec = PersistenceTool.spec(
        name: "codegen",
        abstract: "Generate Swift classes from a model, as Xcode's Codegen does.",
        discussion: """
            Per entity, by its Codegen setting: "Class Definition" (codeGenerationType
            "class") writes <Class>+Class.swift and <Class>+Properties.swift;
            "Category/Extension" ("category") writes only <Class>+Properties.swift, for a
            class you write; "Manual/None" (no setting, as in most models Xcode did not
            generate) writes nothing, unless --all, which generates those as "Class
            Definition"; when no entity is generated this says so. <Model>+Model.swift lists the
            classes for PersistentContainer. Files whose text is unchanged are not rewritten;
            the names of the files written are printed, one per line. A model that does not
            validate exits 65 and writes nothing; an output that cannot be used exits 1; a
            missing model exits 66.
            """,
        arguments: [ModelCommands.path],
        options: [
            output, ModelCommands.version, all,
        ])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool model codegen Books.xcdatamodeld --output Sources/Model",
            "Write Swift classes for the entities whose Codegen asks for them."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        guard let directory = parsed[Self.output] else {
            // The parser refuses the command line without it; this is only a safeguard.
            throw parser.error(.missingArgument(Self.output.spec.displayName), path: parsed.commandPath)
        }
        path = parsed[ModelCommands.path] ?? ""
        version = parsed[ModelCommands.version]
        self.directory = directory
        generatesAll = parsed[Self.all]
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let model = try ModelCommands.load(path: path, version: version)
        // Code for a model that does not validate (a relationship to an entity that is not
        // there, a clash of names) would not compile, or would open no store: refused as
        // `store create` refuses it (65), before any file or folder is written.
        do { try model.validate() } catch let error as ModelError {
            throw ToolError(code: .dataError, message: ModelCommands.message(for: error))
        } catch {
            throw ToolError(code: .runtimeError, message: "error: \(error)")
        }
        let name = CodeGenerator.modelName(for: URL(fileURLWithPath: path))
        do {
            var generator = CodeGenerator(model: model, modelName: name)
            generator.generatesManualEntities = generatesAll
            let files = try generator.files()
            try GeneratedFile.write(files, to: URL(fileURLWithPath: directory))
            for file in files { output.print(file.name) }
            if !generator.generatesAnyEntity {
                output.error(
                    "note: no entity of the model has a Codegen setting (Xcode's Manual/None), so no file was "
                        + "written; --all generates a class for each")
            }
        } catch {
            throw ToolError(code: .runtimeError, message: "error: \(error)")
        }
        return .success
    }
}
