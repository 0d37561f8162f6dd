import Foundation
import PersistenceTestSupport
import Testing

/// persistence-tool's completion scripts and manual page come from its command specs, as
/// `books`' do: nested commands and their options included.
@Suite struct PersistenceToolDocumentationTests {
    @Test func theCompletionScriptsNameNestedCommandsAndTheirOptions() throws {
        for shell in ["bash", "zsh", "fish"] {
            let run = try ToolRun(["completions", shell])
            #expect(run.status == 0 && run.stderr.isEmpty, "\(shell): \(run)")
            for word in ["store export", "model validate", "model", "output", "dry-run", "persistence_tool"] {
                #expect(run.stdout.contains(word), "\(shell): \(word)")
            }
        }
        #expect(try ToolRun(["completions", "csh"]).status == 64)
    }

    @Test func theManualPageHasASubsectionPerCommand() throws {
        let run = try ToolRun(["man"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasPrefix(".TH \"PERSISTENCE\\-TOOL\" 1 \"\""))
        for path in ["model dump", "model validate", "store export", "store migrate", "completions", "man"] {
            #expect(run.stdout.contains("\n.SS persistence\\-tool \(path)\n"), "\(path)")
        }
        #expect(run.stdout.contains("\n.SH EXIT STATUS\n"))
    }
}
