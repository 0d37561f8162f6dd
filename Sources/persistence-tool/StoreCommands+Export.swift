import CommandLineSupport
import Foundation
import Persistence

extension StoreCommands {
    /// Streams the archive of `context` to the file `path` (see
    /// `StoreArchive.exportJSON(from:to:)`), or to standard output through a scratch file
    /// with no name, so that an error leaves neither a partial file nor partial output, and
    /// a killed export leaves nothing in the temporary folder.
    ///
    /// Standard output is written directly rather than through `ToolOutput`, which would
    /// hold the whole document in memory; export prints nothing else to it.
    static func exportStreaming(_ context: ManagedObjectContext, to path: String?) throws(ToolError) {
        if let path {
            do {
                try StoreArchive.exportJSON(from: context, to: URL(fileURLWithPath: path), finalNewline: true)
            } catch let error as StoreArchiveError {
                // Export reads a valid store: an archive error here is the file that cannot be written.
                throw ToolError(code: .runtimeError, message: "error: \(error)")
            } catch {
                throw failure(error, file: nil)
            }
            return
        }
        do {
            let scratch = try OutputFile.scratch()
            var buffer = ""
            do {
                try StoreArchiveWriter(context: context).write { text in
                    buffer += text
                    if buffer.utf8.count >= 1 << 16 {
                        try scratch.write(contentsOf: Data(buffer.utf8))
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                throw failure(error, file: nil)
            }
            try scratch.write(contentsOf: Data((buffer + "\n").utf8))
            try scratch.seek(toOffset: 0)
            let output = OutputWriter()
            while let chunk = try scratch.read(upToCount: 1 << 16), !chunk.isEmpty {
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
        } catch let error as ToolError {
            throw error
        } catch let error as OutputWriteError {
            throw ToolError(code: .runtimeError, message: "error: \(error)")
        } catch {
            throw ToolError(code: .runtimeError, message: "error: the export could not be copied to standard output: \(error)")
        }
    }
}
