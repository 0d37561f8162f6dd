import Foundation
import PersistenceModel

extension StoreArchive {
    /// Writes every object the context can fetch as archive JSON to a file: the text
    /// `exportJSON(from:)` returns, followed by a newline when `finalNewline` is set.
    ///
    /// The text is written as objects are read, a page at a time, so memory stays flat
    /// however large the store (a context with unsaved changes first maps every object's
    /// place, see `StoreArchiveWriter`). It goes to a file with no name beside `url` that
    /// takes `url`'s place only when the export is complete (`OutputFile`): on any error, or
    /// a process killed part-way, `url` is left as it was and nothing else is left behind.
    /// `url` is never the context's own store or one of its files, another SQLite database,
    /// a directory, a device, a FIFO, a socket or a read-only file: those are refused before
    /// anything is read.
    ///
    /// - Throws: `StoreArchiveError` naming the file when it is refused or cannot be
    ///   written; the store's `PersistentStoreFailure` when it cannot be read;
    ///   `ValueTransformerError` when a transformable value cannot be encoded.
    public static func exportJSON(from context: ManagedObjectContext, to url: URL, finalNewline: Bool = false) throws {
        let store = context.persistentStoreCoordinator.store.url.map { [$0.path] } ?? []
        let file: OutputFile
        do { file = try OutputFile(path: url.path, protecting: store) } catch {
            throw StoreArchiveError(location: url.path, reason: "the export could not be written: \(error.reason)")
        }
        // Whole chunks of about 64 KB go to the file, so that a write per piece does not add up.
        var buffer = ""
        func drain() throws {
            do { try file.write(buffer) } catch {
                throw StoreArchiveError(location: url.path, reason: "the export could not be written: \(error.reason)")
            }
            buffer.removeAll(keepingCapacity: true)
        }
        do {
            try StoreArchiveWriter(context: context).write { text in
                buffer += text
                if buffer.utf8.count >= 1 << 16 { try drain() }
            }
            if finalNewline { buffer += "\n" }
            try drain()
            do { try file.commit() } catch {
                throw StoreArchiveError(location: url.path, reason: "the export could not be written: \(error.reason)")
            }
        } catch {
            file.discard()
            throw error
        }
    }
}
