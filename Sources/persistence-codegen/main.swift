import Foundation
import Persistence
import PersistenceCodegen

// persistence-codegen <model> (--output <dir> | --single-file <file>) [--version <name>]
//
// Exit codes as persistence-tool's: 0 success, 1 write failure or bad model, 64 usage,
// 66 missing model.

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
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(code)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var positionals: [String] = []
var values: [String: String] = [:]
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "-h", "--help":
        print(help)
        exit(0)
    case "--output", "--version", "--single-file":
        guard !arguments.isEmpty else { fail("Error: \(argument) needs a value\n\(usage)", 64) }
        values[argument] = arguments.removeFirst()
    default:
        if argument.hasPrefix("-") { fail("Error: unknown option '\(argument)'\n\(usage)", 64) }
        positionals.append(argument)
    }
}
guard positionals.count == 1 else {
    fail("Error: expected one model path, got \(positionals.count)\n\(usage)", 64)
}
guard (values["--output"] == nil) != (values["--single-file"] == nil) else {
    fail("Error: give either --output <dir> or --single-file <file>\n\(usage)", 64)
}

do {
    let generator = try CodeGenerator(
        contentsOf: URL(fileURLWithPath: positionals[0]), version: values["--version"])
    if let output = values["--output"] {
        try GeneratedFile.write(try generator.files(), to: URL(fileURLWithPath: output))
    } else if let path = values["--single-file"] {
        let url = URL(fileURLWithPath: path)
        let file = try generator.singleFile(named: url.lastPathComponent)
        try GeneratedFile.write([file], to: url.deletingLastPathComponent())
    }
} catch let error as CodegenError {
    fail("error: \(error)", 1)
} catch let error as ModelFileError {
    fail("error: \(error)", error.kind == .unwritable ? 1 : 66)
} catch {
    fail("error: \(error)", 1)
}
