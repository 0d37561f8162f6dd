import CommandLineSupport
import Foundation
import Persistence

/// `persistence-tool model …`: the arguments and steps its commands (`ModelDumpCommand`, …)
/// share: reading a model file, and saying what is wrong with one.
enum ModelCommands {
    static let path = Argument<String>(
        "path", help: "A .xcdatamodeld bundle, a .xcdatamodel directory or its contents file."
    )

    static let version = Option<String>(
        "version", valueName: "name",
        help: "The version of a .xcdatamodeld bundle to read (default: the current one).")

    /// Reads the model at `path` (a bundle's `version`, or its current one), turning failures
    /// into exit codes: 66 for a file or version that is not there or cannot be read, 65 for a
    /// malformed file.
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
