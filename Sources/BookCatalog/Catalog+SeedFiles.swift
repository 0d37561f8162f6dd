import Foundation
import Persistence

extension Catalog {
    // MARK: - Seed files

    /// The books of a seed file chosen by the user (`books seed --file PATH`), in the format
    /// of the bundled `SeedData/books.json`.
    ///
    /// The whole file is read and checked before anything is written, so a bad file leaves
    /// the store as it was.
    ///
    /// - Throws: ``MissingInputFileError`` when the file does not exist or cannot be read;
    ///   `CatalogInputError` naming the file, the entry and the field when it is malformed
    ///   or truncated.
    public static func seedBooks(contentsOf url: URL) throws -> [SeedBook] {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MissingInputFileError(path: path, reason: "it does not exist")
        }
        if isDirectory.boolValue { throw MissingInputFileError(path: path, reason: "it is a directory") }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? "\(error)"
            throw MissingInputFileError(path: path, reason: "it cannot be read (\(reason))")
        }
        return try SeedBook.decode(data, file: path)
    }

    /// Adds or updates (by UUID) the given books and their authors, saving every
    /// `batchSize` books.
    ///
    /// Each batch is one transaction: an interrupted run keeps whole batches, never part of
    /// one. Memory holds one batch at a time. Seeding the same books again updates them
    /// (their UUIDs are unique), so the count does not grow.
    ///
    /// - Parameters:
    ///   - books: the books, in the order they are saved.
    ///   - batchSize: how many books each save holds (at least 1).
    ///   - progress: called after each batch with the number of books done.
    /// - Returns: the number of books given.
    @discardableResult
    public func seed(_ books: [SeedBook], batchSize: Int, progress: (Int) -> Void = { _ in }) throws -> Int {
        try seedBatches(count: books.count, batchSize: batchSize, progress: progress) { books[$0] }
        return books.count
    }

    /// Saves books `0..<count`, made by `book`, `batchSize` per transaction.
    func seedBatches(count: Int, batchSize: Int, progress: (Int) -> Void, book: (Int) -> SeedBook) throws {
        let size = max(1, batchSize)
        var authors = try authorsByName()
        var done = 0
        while done < count {
            let end = min(count, done + size)
            try save((done..<end).map(book), authors: &authors)
            done = end
            progress(done)
        }
    }
}

/// An input file that `books` needs but cannot read: missing, a directory, or unreadable.
///
/// The command line reports it on one line and exits 66 (`EX_NOINPUT`); nothing is written.
public struct MissingInputFileError: Error, Sendable, CustomStringConvertible {
    /// The file's path as given.
    public var path: String
    /// Why it cannot be read, such as `it does not exist`.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "The seed file '/tmp/x.json' cannot be used: it does not exist."
    public var description: String { "The seed file '\(path)' cannot be used: \(reason)." }
}
