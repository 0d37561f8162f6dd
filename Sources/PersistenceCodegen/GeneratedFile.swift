import Foundation
import PersistenceModel

/// One Swift source file the generator writes: its name and its text.
public struct GeneratedFile: Sendable, Hashable {
    /// The file name, such as `Book+Properties.swift`.
    public var name: String
    /// The file's text, ending in a newline.
    public var contents: String

    /// Creates a generated file.
    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }

    /// Writes the files into `directory` (created if missing). A file whose text is already
    /// on disk is left untouched, so that an unchanged model does not make the build
    /// recompile; other files in the directory are never removed.
    ///
    /// - Throws: `CodegenError` naming the file that cannot be written.
    public static func write(_ files: [GeneratedFile], to directory: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true)
        } catch {
            throw CodegenError.unwritable(path: directory.path, reason: Self.reason(error))
        }
        for file in files {
            let url = directory.appendingPathComponent(file.name)
            let data = Data(file.contents.utf8)
            // Only a regular file is compared (a FIFO would block the read), and it is
            // replaced whole through `OutputFile`, which refuses a device, a directory, an
            // SQLite database or a read-only file, and leaves nothing if the run is killed.
            if case .other(let kind) = FileKind.of(url.path) {
                throw CodegenError.unwritable(path: url.path, reason: "it is \(kind), not a regular file")
            }
            if (try? InputFile.read(url.path, regularFileOnly: true)) == data { continue }
            do {
                let output = try OutputFile(path: url.path)
                try output.write(file.contents)
                try output.commit()
            } catch {
                throw CodegenError.unwritable(path: url.path, reason: error.reason)
            }
        }
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? error.localizedDescription
    }
}
