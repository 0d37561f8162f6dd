import CommandLineSupport
import Foundation
import Persistence

/// `model validate <path> [--version <name>]`.
struct ModelValidateCommand: PersistenceToolCommand {
    /// The model file.
    var path: String
    /// `--version`: the bundle's version to read.
    var version: String?

    static let spec = PersistenceTool.spec(
        name: "validate",
        abstract: "Check a model and list every problem.",
        discussion: """
            Prints "valid" and exits 0 when the model has no errors; warnings (such as a
            relationship without an inverse) go to standard error, one per line, prefixed
            "warning: ". Otherwise every problem goes to standard error, one per line, prefixed
            "error: ", and the exit code is 65. A missing file or version exits 66; a malformed
            file exits 65 with its line number.
            """,
        arguments: [ModelCommands.path],
        options: [ModelCommands.version])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool model validate Books.xcdatamodeld",
            "Check a model and list every problem; exit 65 when it has errors."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {
        path = parsed[ModelCommands.path] ?? ""
        version = parsed[ModelCommands.version]
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let model = try ModelCommands.load(
            path: path, version: version,
            listingEveryProblem: true)
        for warning in model.warnings { output.error("warning: \(warning)") }
        do {
            try model.validate()
        } catch let error as ModelError {
            for problem in error.problems { output.error("error: \(QuotedText.forMessage(problem.description))") }
            return .dataError
        } catch {
            throw ToolError(code: .runtimeError, message: "error: \(error)")
        }
        output.print("valid")
        return .success
    }
}
