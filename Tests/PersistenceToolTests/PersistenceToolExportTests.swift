import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// `persistence-tool store export`, run as the built binary: the streamed document on
/// standard output or in `--output`'s file, and nothing at all when it fails.
@Suite struct PersistenceToolExportTests {
    @Test func outputFileHoldsWhatStandardOutputWouldPrint() throws {
        let sample = try PersistenceToolStoreTests.sampleStore()
        defer { try? FileManager.default.removeItem(at: sample.directory) }
        let printed = try ToolRun(["store", "export", sample.store] + sample.model)
        #expect(printed.status == 0 && printed.stderr == "", "\(printed)")
        #expect(printed.stdout.hasPrefix("{\n  \"Car\": [\n    {\n      \"@id\": \"Car/p1\""))
        #expect(printed.stdout.hasSuffix("\n}\n"))
        let file = sample.directory.appendingPathComponent("out.json").path
        let written = try ToolRun(["store", "export", sample.store, "--output", file] + sample.model)
        #expect(written.status == 0 && written.stdout == "" && written.stderr == "", "\(written)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sample.directory.path).sorted() == ["in.json", "out.json", "s.sqlite"])
    }

    @Test func anUnwritableOutputFileFailsWithNothingWritten() throws {
        let sample = try PersistenceToolStoreTests.sampleStore()
        defer { try? FileManager.default.removeItem(at: sample.directory) }
        let file = sample.directory.appendingPathComponent("missing/out.json").path
        let result = try ToolRun(["store", "export", sample.store, "--output", file] + sample.model)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr == "error: Cannot write \(file): No such file or directory; nothing was written.\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
