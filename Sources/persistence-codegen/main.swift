import CommandLineSupport
import Foundation
import Persistence
import PersistenceCodegen

// persistence-codegen <model> (--output <dir> | --single-file <file>) [--version <name>]
//
// Exit codes as persistence-tool's: 0 success, 1 write failure or a model codegen cannot
// use, 64 usage, 65 a model that does not validate or an argument that is not UTF-8, 66 a
// missing model. Every error is one line.

let usage = "Usage: persistence-codegen <model> --output <dir> [--version <name>]\n       persistence-codegen <model> --single-file <file> [--version <name>]"
let help = """
    OVERVIEW: Generate Swift classes from an Xcode model, as Xcode's Codegen does.

    Entities with Codegen "Class Definition" get <Class>+Class.swift and
    <Class>+Properties.swift; "Category/Extension" gets only <Class>+Properties.swift;
    "Manual/None" gets nothing. <Model>+Model.swift lists the classes. Unchanged files
    are not rewritten.

    \(usage)

    ARGUMENTS:
      <model>                 A .xcdatamodeld bundle, a .xcdatamodel directory or its contents file.

    OPTIONS:
      --output <dir>          The directory to write the files into (created if missing).
      --version <name>        The version of a .xcdatamodeld bundle (default: the current one).
      --single-file <file>    Write all the code into this one file instead (the build plugin's way).
      -h, --help              Show help information.
    """

func fail(_ message: String, _ code: Int32) -> Never {
    try? OutputWriter(fileDescriptor: STDERR_FILENO).write(message + "\n")
    exit(code)
}

/// A usage error: one line that points at the help, as the other tools' do.
func usageError(_ message: String) -> Never {
    fail("Error: \(message). See 'persistence-codegen --help'.", 64)
}

var arguments: [String]
switch ProcessArguments.decoded() {
case .success(let decoded): arguments = decoded
case .failure(let error): fail("Error: The \(error); nothing was done.", 65)
}
var positionals: [String] = []
var values: [String: String] = [:]
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "-h", "--help":
        do { try OutputWriter().write(help + "\n") } catch { fail("Error: \(error)", 1) }
        exit(0)
    case "--output", "--version", "--single-file":
        guard !arguments.isEmpty else { usageError("\(argument) needs a value") }
        values[argument] = arguments.removeFirst()
    default:
        if argument.hasPrefix("-") { usageError("unknown option '\(QuotedText.excerpt(argument))'") }
        positionals.append(argument)
    }
}
guard positionals.count == 1 else {
    usageError("expected one model path, got \(positionals.count)")
}
guard (values["--output"] == nil) != (values["--single-file"] == nil) else {
    usageError("give either --output <dir> or --single-file <file>")
}

do {
    let generator = try CodeGenerator(
        contentsOf: URL(fileURLWithPath: positionals[0]), version: values["--version"])
    // Code for a model that does not validate would not compile, or would open no store:
    // refused before any file is written, as persistence-tool's codegen refuses it.
    do { try generator.model.validate() } catch let error as ModelError {
        let more = error.problems.count > 1 ? " (and \(error.problems.count - 1) more)" : ""
        fail("error: \(QuotedText.forMessage(error.problems.first?.description ?? error.description))\(more)", 65)
    }
    if let output = values["--output"] {
        try GeneratedFile.write(try generator.files(), to: URL(fileURLWithPath: output))
    } else if let path = values["--single-file"] {
        let url = URL(fileURLWithPath: path)
        let file = try generator.singleFile(named: url.lastPathComponent)
        try GeneratedFile.write([file], to: url.deletingLastPathComponent())
    }
} catch let error as CodegenError {
    fail("error: \(QuotedText.forMessage(error.description))", 1)
} catch let error as ModelFileError {
    fail("error: \(QuotedText.forMessage(error.description))", error.kind == .unwritable ? 1 : 66)
} catch {
    fail("error: \(QuotedText.forMessage(String(describing: error)))", 1)
}
