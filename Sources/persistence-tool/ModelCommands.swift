import CommandLineSupport
import Foundation
import Persistence

/// `persistence-tool model …`: read, check and print model files.
enum ModelCommands {
    /// The `model` command group.
    static let group = ToolCommand(
        name: "model",
        abstract: "Read, check and print Xcode model files.",
        subcommands: [dump, validate, codegen])

    /// `model dump <path> [--json] [--version <name>]`.
    static let dump = ToolCommand(
        name: "dump",
        abstract: "Print a model's entities with their own properties.",
        discussion: """
            Entities are sorted by name; each lists its own (not inherited) attributes and
            relationships, its uniqueness constraints, its indexes and its version hash. With
            --json the output is one object: {"entities": [{"name", "className", "parent",
            "abstract", "versionHash", "attributes": [{"name", "type", "optional", "transient",
            "derived", "derivation", "defaultValue", "versionHash"}], "relationships": [{"name",
            "destination", "inverse", "deleteRule", "toMany", "ordered", "minCount", "maxCount",
            "optional", "spotlightIndexingEnabled"}], "uniquenessConstraints": [[names]], "indexes": [{"name",
            "properties"}]}]}. Types and delete rules are spelled as in the file ("Integer 16",
            "Nullify"); defaultValue is the default as written; absent values are null. The
            model is printed as read, valid or not.
            """,
        arguments: [path],
        options: [
            json, version,
        ],
        action: { arguments, output throws(ToolError) in
            let model = try load(arguments)
            let dump = ModelDump(model: model)
            output.print(arguments[json] ? dump.json() : dump.text())
            return .success
        })

    /// `model validate <path> [--version <name>]`.
    static let validate = ToolCommand(
        name: "validate",
        abstract: "Check a model and list every problem.",
        discussion: """
            Prints "valid" and exits 0 when the model has no errors; warnings (such as a
            relationship without an inverse) go to standard error, one per line, prefixed
            "warning: ". Otherwise every problem goes to standard error, one per line, prefixed
            "error: ", and the exit code is 65. A missing file or version exits 66; a malformed
            file exits 65 with its line number.
            """,
        arguments: [path],
        options: [version],
        action: { arguments, output throws(ToolError) in
            let model = try load(
                path: arguments[path] ?? "", version: arguments[version],
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
        })

    static let path = Argument<String>(
        "path", help: "A .xcdatamodeld bundle, a .xcdatamodel directory or its contents file."
    )

    /// `--json` of `model dump`.
    static let json = Flag("json", help: "Print JSON instead of text.")

    static let version = Option<String>(
        "version", valueName: "name",
        help: "The version of a .xcdatamodeld bundle to read (default: the current one).")

    /// Reads the model the arguments name, turning failures into exit codes: 66 for a file
    /// or version that is not there or cannot be read, 65 for a malformed file.
    static func load(_ arguments: ParsedArguments) throws(ToolError) -> ManagedObjectModel {
        try load(path: arguments[path] ?? "", version: arguments[version])
    }

    /// Reads the model at `path` (a bundle's `version`, or its current one), as `load(_:)`.
    ///
    /// A malformed model is one line of error naming its first problem and how many more
    /// there are; `model validate`, whose output is the list, passes `listingEveryProblem`
    /// for a line per problem.
    static func load(path: String, version: String?, listingEveryProblem: Bool = false)
        throws(ToolError) -> ManagedObjectModel
    {
        let url = URL(fileURLWithPath: path)
        do {
            return try ManagedObjectModel(contentsOf: url, version: version)
        } catch let error as ModelFileError {
            throw ToolError(
                code: error.kind == .unwritable ? .runtimeError : .noInput, message: "error: \(error)")
        } catch let error as ModelError {
            guard listingEveryProblem else {
                throw ToolError(code: .dataError, message: message(for: error))
            }
            let place = error.file.map { "\($0): " } ?? ""
            let lines = error.problems.map { "error: \(place)\(QuotedText.forMessage($0.description))" }
            throw ToolError(
                code: .dataError, message: lines.joined(separator: "\n"), isListOfProblems: true)
        } catch {
            throw ToolError(code: .runtimeError, message: "error: \(error)")
        }
    }

    /// One line for a model's problems: the first, and how many more there are.
    static func message(for error: ModelError) -> String {
        let place = error.file.map { "\($0): " } ?? ""
        guard let first = error.problems.first else { return "error: \(place)\(QuotedText.forMessage(error.description))" }
        let more = error.problems.count - 1
        let tail =
            more == 0
            ? ""
            : " (and \(QuotedText.grouped(more)) more \(more == 1 ? "problem" : "problems"); "
                + "'persistence-tool model validate' lists them)"
        return "error: \(place)\(QuotedText.forMessage(first.description))\(tail)"
    }
}
