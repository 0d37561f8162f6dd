import Foundation
import Testing

/// `persistence-codegen` reads its command line with the framework `books` and
/// `persistence-tool` share: a usage error is one line on standard error that points to the
/// help, exits 64 and writes nothing; `--help` prints the shared layout.
@Suite struct CodegenUsageErrorTests {
    @Test func anUnknownOptionSuggestsTheNearestOne() throws {
        let run = try CodegenRun(["M.xcdatamodel", "--single-fiel", "out.swift"])
        #expect(run.status == 64, "\(run)")
        #expect(
            run.stderr
                == "Error: Unknown option '--single-fiel'. Did you mean '--single-file'? See 'persistence-codegen --help'.\n")
        #expect(run.stdout.isEmpty)
    }

    @Test func aMissingModelArgumentIsNamed() throws {
        let run = try CodegenRun(["--output", "Generated"])
        #expect(run.status == 64, "\(run)")
        #expect(
            run.stderr
                == "Error: Missing expected argument '<model>'. See 'persistence-codegen --help'.\n")
    }

    @Test func anOptionWithoutItsValueIsNamed() throws {
        let run = try CodegenRun(["M.xcdatamodel", "--output"])
        #expect(run.status == 64, "\(run)")
        #expect(
            run.stderr == "Error: Missing value for '--output <dir>'. See 'persistence-codegen --help'.\n")
    }

    @Test func bothDestinationsAtOnceAreRefused() throws {
        let run = try CodegenRun(["M.xcdatamodel", "--output", "a", "--single-file", "b.swift"])
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.hasPrefix("Error: Expected exactly one of '--output <dir>' or '--single-file <file>'."))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func aSecondModelIsAnUnexpectedArgument() throws {
        let run = try CodegenRun(["A.xcdatamodel", "B.xcdatamodel", "--output", "x"])
        #expect(run.status == 64, "\(run)")
        #expect(
            run.stderr
                == "Error: Unexpected argument 'B.xcdatamodel'. See 'persistence-codegen --help'.\n")
    }

    @Test func helpShowsTheUsageArgumentsAndOptions() throws {
        for flag in ["--help", "-h"] {
            let run = try CodegenRun([flag])
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.isEmpty)
            #expect(
                run.stdout.hasPrefix(
                    "OVERVIEW: Generate Swift classes from an Xcode model, as Xcode's Codegen does.\n"))
            #expect(
                run.stdout.contains(
                    "\nUSAGE: persistence-codegen <model> [--output <dir>] [--single-file <file>]\n"))
            #expect(run.stdout.contains("\nARGUMENTS:\n  <model>                 A .xcdatamodeld bundle"))
            #expect(run.stdout.contains("\n  --single-file <file>    Write all the code into this one file"))
            #expect(run.stdout.contains("\n  -h, --help              Show help information.\n"))
            #expect(!run.stdout.contains("SUBCOMMANDS"))
            for line in run.stdout.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        }
    }
}
