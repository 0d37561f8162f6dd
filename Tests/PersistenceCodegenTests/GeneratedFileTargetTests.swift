import Foundation
import PersistenceCodegen
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Generated files are written only over regular files: a FIFO or a device where a file
/// would go is refused, not waited on or replaced.
@Suite struct GeneratedFileTargetTests {
    @Test func aFIFOWhereAFileGoesIsRefusedWithoutWaiting() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("Book+Properties.swift")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let error = try #require(throws: CodegenError.self) {
            try GeneratedFile.write([GeneratedFile(name: "Book+Properties.swift", contents: "// x\n")], to: directory)
        }
        #expect("\(error)".contains("it is a FIFO (named pipe), not a regular file"), "\(error)")
        var status = stat()
        #expect(stat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    }
}
