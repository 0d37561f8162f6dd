import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// `persistence-tool model codegen` refuses a model that does not validate (65, naming the
/// first problem) and writes nothing: it used to write classes for a relationship to an
/// entity that is not there, and exit 0.
@Suite struct CodegenInvalidModelTests {
    @Test func aModelThatDoesNotValidateWritesNothing() throws {
        let original = try String(contentsOf: ModelFixtures.moody.appendingPathComponent("contents"), encoding: .utf8)
        let broken = original.replacingOccurrences(of: "<entity ", with: #"<entity codeGenerationType="class" "#)
            .replacingOccurrences(of: #"destinationEntity="Mood""#, with: #"destinationEntity="Nowhere""#)
        let contents = try ModelFixtures.writeContents(broken)
        let directory = contents.deletingLastPathComponent().deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("Generated")
        let run = try ToolRun([
            "model", "codegen", contents.deletingLastPathComponent().path, "--output", output.path,
        ])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.contains("unknown destination entity 'Nowhere'"), "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
