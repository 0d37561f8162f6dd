import Foundation
import Testing

@testable import Persistence

/// `persistence-tool store export`, run as the built binary: the streamed document on
/// standard output or in `--output`'s file, and nothing at all when it fails.
@Suite struct PersistenceToolExportTests {
    /// A SampleModel store with a person and two cars, its directory and `--model` arguments.
    private static func sampleStore() throws -> (directory: URL, store: String, model: [String]) {
        let directory = try ModelFixtures.temporaryDirectory()
        let model = ["--model", ModelFixtures.sampleBundle.path, "--version", "SampleModel"]
        let store = directory.appendingPathComponent("s.sqlite").path
        let input = directory.appendingPathComponent("in.json")
        try Data(
            """
            {"Person": [{"@id": "p", "firstName": "Ada", "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                         "updatedAt": "2024-01-02T03:04:05.5Z"}],
             "Car": [{"@id": "c", "numberPlate": "AB-123", "owner": "p", "color": "AQID"}],
             "SportCar": [{"numberPlate": "S-1", "owner": "p"}]}
            """.utf8
        ).write(to: input)
        for arguments in [["store", "create", store] + model, ["store", "import", store, input.path] + model] {
            let result = try ToolRun(arguments)
            #expect(result.status == 0, "\(result)")
        }
        try FileManager.default.removeItem(at: input)
        return (directory, store, model)
    }

    @Test func outputFileHoldsWhatStandardOutputWouldPrint() throws {
        let sample = try Self.sampleStore()
        defer { try? FileManager.default.removeItem(at: sample.directory) }
        let printed = try ToolRun(["store", "export", sample.store] + sample.model)
        #expect(printed.status == 0 && printed.stderr == "", "\(printed)")
        #expect(printed.stdout.hasPrefix("{\n  \"Car\": [\n    {\n      \"@id\": \"Car/p1\""))
        #expect(printed.stdout.hasSuffix("\n}\n"))
        let file = sample.directory.appendingPathComponent("out.json").path
        let written = try ToolRun(["store", "export", sample.store, "--output", file] + sample.model)
        #expect(written.status == 0 && written.stdout == "" && written.stderr == "", "\(written)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sample.directory.path).sorted() == ["out.json", "s.sqlite"])
    }

    @Test func anUnwritableOutputFileFailsWithNothingWritten() throws {
        let sample = try Self.sampleStore()
        defer { try? FileManager.default.removeItem(at: sample.directory) }
        let file = sample.directory.appendingPathComponent("missing/out.json").path
        let result = try ToolRun(["store", "export", sample.store, "--output", file] + sample.model)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderrLines.first?.hasPrefix("error: \(file): the export could not be written: ") == true, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
