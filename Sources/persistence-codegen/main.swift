import CommandLineSupport
import Foundation
import Persistence
import PersistenceCodegen

// persistence-codegen <model> (--output <dir> | --single-file <file>) [--version <name>]
//
// Exit codes as persistence-tool's (`ExitCode`): 0 success, 1 write failure or a model
// codegen cannot use, 64 usage, 65 a model that does not validate or an argument that is
// not UTF-8, 66 a missing model. Every error is one line.

/// Writes `message` as one line to standard error and exits with `code`.
/// A password in a location the message echoes is hidden (`SecretRedaction`).
func fail(_ message: String, _ code: ExitCode) -> Never {
    try? OutputWriter(fileDescriptor: STDERR_FILENO).write(SecretRedaction.redacting(message) + "\n")
    exit(code.rawValue)
}

// The arguments are read as bytes: one that is not UTF-8 is refused (65) rather than
// silently read with U+FFFD in place of its bytes.
let arguments: [String]
switch ProcessArguments.decoded() {
case .success(let decoded): arguments = decoded
case .failure(let error): fail("Error: The \(error); nothing was done.", .dataError)
}
let request: CodegenCommand.Request
do throws(UsageError) {
    switch try CodegenCommand.parse(arguments) {
    case .help(let text):
        do { try OutputWriter().write(text) } catch { fail("Error: \(error)", .runtimeError) }
        exit(ExitCode.success.rawValue)
    case .generate(let generate):
        request = generate
    }
} catch {
    // One line that ends with a pointer to the help, as books' and persistence-tool's.
    try? OutputWriter(fileDescriptor: STDERR_FILENO).write(SecretRedaction.redacting(error.description))
    exit(error.exitCode.rawValue)
}

do {
    let generator = try CodeGenerator(
        contentsOf: URL(fileURLWithPath: request.model), version: request.version)
    // Code for a model that does not validate would not compile, or would open no store:
    // refused before any file is written, as persistence-tool's codegen refuses it.
    do { try generator.model.validate() } catch let error as ModelError {
        let more = error.problems.count > 1 ? " (and \(error.problems.count - 1) more)" : ""
        let first = error.problems.first?.description ?? error.description
        fail("error: \(QuotedText.forMessage(first))\(more)", .dataError)
    }
    switch request.destination {
    case .directory(let path):
        try GeneratedFile.write(try generator.files(), to: URL(fileURLWithPath: path))
    case .singleFile(let path):
        let url = URL(fileURLWithPath: path)
        let file = try generator.singleFile(named: url.lastPathComponent)
        try GeneratedFile.write([file], to: url.deletingLastPathComponent())
    }
} catch let error as CodegenError {
    fail("error: \(QuotedText.forMessage(error.description))", .runtimeError)
} catch let error as ModelFileError {
    fail(
        "error: \(QuotedText.forMessage(error.description))",
        error.kind == .unwritable ? .runtimeError : .noInput)
} catch {
    fail("error: \(QuotedText.forMessage(String(describing: error)))", .runtimeError)
}
