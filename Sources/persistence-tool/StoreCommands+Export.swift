import CommandLineSupport
import Foundation
import Persistence

extension StoreCommands {
    /// Streams the archive of `context` to the file `path`, or to standard output through a
    /// temporary file, so that an error leaves neither a partial file nor partial output.
    ///
    /// Standard output is written directly rather than through `ToolOutput`, which would
    /// hold the whole document in memory; export prints nothing else to it.
    static func exportStreaming(_ context: ManagedObjectContext, to path: String?) throws(ToolError) {
        let target = path.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "persistence-export-\(UUID().uuidString).json")
        do {
            try StoreArchive.exportJSON(from: context, to: target, finalNewline: true)
        } catch let error as StoreArchiveError {
            // Export reads a valid store: an archive error here is the file that cannot be written.
            throw ToolError(code: .runtimeError, message: "error: \(error)")
        } catch {
            throw failure(error, file: nil)
        }
        guard path == nil else { return }
        defer { try? FileManager.default.removeItem(at: target) }
        do {
            let input = try FileHandle(forReadingFrom: target)
            defer { try? input.close() }
            let output = OutputWriter()
            while let chunk = try input.read(upToCount: 1 << 16), !chunk.isEmpty {
                let failure: OutputWriteError? = chunk.withUnsafeBytes { bytes in
                    do throws(OutputWriteError) {
                        try output.write(bytes: bytes)
                        return nil
                    } catch {
                        return error
                    }
                }
                if let failure { throw failure }
            }
        } catch let error as OutputWriteError {
            throw ToolError(code: .runtimeError, message: "error: \(error)")
        } catch {
            throw ToolError(code: .runtimeError, message: "error: the export could not be copied to standard output: \(error)")
        }
    }
}
