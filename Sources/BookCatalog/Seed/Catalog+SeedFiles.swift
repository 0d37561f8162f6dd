import Foundation
import Persistence

extension Catalog {
    // MARK: - Seeding in batches

    /// The longest, roughly, that a seed keeps one write transaction open, in seconds.
    ///
    /// Another process's write waits for the seed's transaction to end (for up to the
    /// store's busy timeout, 10 s); a transaction of a large batch can take longer than that,
    /// and the other writer then fails with "database is locked". See ``SeedPace``.
    public static let defaultSeedTransactionTimeLimit = 1.0

    /// Adds the books of `file`, then `syntheticCount` synthetic books (``SyntheticBooks``),
    /// that the catalogue lacks, saving at most `batchSize` books per transaction.
    ///
    /// A transaction of more than ``SeedPace/unsplitRows`` books also ends early, so that it
    /// lasts about `transactionTimeLimit` at most and a concurrent writer waits its turn
    /// instead of failing. Each transaction is whole: a seed that stops keeps what it
    /// committed, never part of a transaction. Memory holds one batch at a time. A book whose
    /// UUID is already stored is left exactly as it is — the user may have rated, tagged or
    /// annotated a sample book — so seeding the same books again adds nothing.
    ///
    /// The file is checked first if ``SeedFile/check()`` has not run (it normally has, before
    /// the store was opened). A complete seed also records that this catalogue's sample
    /// books have been dealt with, even if the file was empty: a listing of it never seeds
    /// them (see ``seedSampleBooksIfNew()``).
    ///
    /// - Parameters:
    ///   - shouldStop: asked before each transaction; true stops the seed there (a signal).
    ///   - progress: called after each transaction with the number of books done.
    /// - Returns: the books given (the file's entries plus `syntheticCount`) and how many of
    ///   them were added.
    /// - Throws: `CatalogInputError` or ``MissingInputFileError`` when the file is refused
    ///   (nothing written); ``SeedIncompleteError`` when the seed stops or fails part-way,
    ///   saying what it kept.
    @discardableResult
    public func seed(
        file: SeedFile, syntheticCount: Int = 0, batchSize: Int = defaultSeedBatchSize,
        transactionTimeLimit: Double = defaultSeedTransactionTimeLimit,
        shouldStop: () -> Bool = { false }, progress: (Int) -> Void = { _ in }
    ) throws -> SeedSummary {
        let total = try file.check() + max(0, syntheticCount)
        let size = max(1, batchSize)
        var pace = SeedPace(batchSize: size, timeLimit: transactionTimeLimit)
        var done = 0
        var added = 0
        do {
            var authors = try authorsByName()
            func write(_ books: [SeedBook]) throws {
                var start = 0
                while start < books.count {
                    if shouldStop() { throw SeedIncompleteError.Cause.interrupted }
                    let end = min(books.count, start + pace.rows)
                    let began = ContinuousClock.now
                    added += try save(books[start..<end], authors: &authors)
                    pace.record(rows: end - start, took: ContinuousClock.now - began)
                    done += end - start
                    progress(done)
                    start = end
                }
            }
            // The store is prepared once for every batch (a larger cache, fewer checkpoints).
            try context.persistentStoreCoordinator.performBulkLoad(rowCount: total) {
                try file.forEachBatch(size: size) { try write($0) }
                var next = 0
                while next < syntheticCount {
                    let end = min(syntheticCount, next + size)
                    try write((next..<end).map(SyntheticBooks.book))
                    next = end
                }
            }
            if shouldStop(), done < total { throw SeedIncompleteError.Cause.interrupted }
            // Recorded once the seed is complete (a seed that stopped before its first
            // transaction leaves a catalogue that never held a book, which a listing seeds).
            try recordSampleBooks(.chosenByUser)
        } catch let error as CatalogInputError where done == 0 {
            throw error  // the file changed since it was checked; nothing was written
        } catch let error as MissingInputFileError where done == 0 {
            throw error
        } catch {
            let cause = error as? SeedIncompleteError.Cause ?? .failed(error)
            throw SeedIncompleteError(cause: cause, seeded: done, total: total, bookCount: try? bookCount())
        }
        return SeedSummary(given: total, added: added)
    }
}

/// How many books a seed puts in its next transaction: at most the batch size, and — for
/// batches larger than ``unsplitRows`` — as many as the last transaction's pace says fit in
/// half the time limit (half, so that a slower stretch, such as a checkpoint, still ends
/// within the limit).
///
/// Batches of up to ``unsplitRows`` books are never split: such a transaction is short in
/// any build, and a small `--batch-size` keeps its promise of whole batches exactly.
struct SeedPace {
    /// Batches this small are saved whole, whatever the pace.
    static let unsplitRows = 2_000

    let batchSize: Int
    let timeLimit: Double
    /// The size of the next transaction.
    private(set) var rows: Int

    init(batchSize: Int, timeLimit: Double) {
        self.batchSize = batchSize
        self.timeLimit = timeLimit
        rows = min(batchSize, Self.unsplitRows)
    }

    /// Learns from a transaction of `count` rows that took `duration`.
    mutating func record(rows count: Int, took duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        guard seconds > 0, timeLimit > 0 else { return }
        let fitting = Double(count) / seconds * timeLimit / 2
        rows = min(batchSize, max(Self.unsplitRows, Int(min(fitting, Double(Int.max / 2)))))
    }
}

/// A seed that stopped part-way, by a signal or a failure, and what it kept.
///
/// "the disk is full: seeded 2,000 of 20,000 books; the catalogue has 2,459." Every
/// transaction it committed is kept whole; the one it was in is rolled back.
public struct SeedIncompleteError: Error, CustomStringConvertible {
    /// Why the seed stopped.
    public enum Cause: Error {
        /// Asked to stop (`shouldStop` returned true), at a transaction boundary.
        case interrupted
        /// A save or a read failed with this error.
        case failed(any Error)
    }

    /// Why it stopped.
    public var cause: Cause
    /// Books committed by this seed.
    public var seeded: Int
    /// Books it was to seed.
    public var total: Int
    /// Books in the catalogue afterwards, or nil if it could not be counted.
    public var bookCount: Int?

    /// Creates an error.
    public init(cause: Cause, seeded: Int, total: Int, bookCount: Int?) {
        self.cause = cause
        self.seeded = seeded
        self.total = total
        self.bookCount = bookCount
    }

    /// "seeded 2,000 of 20,000 books; the catalogue has 2,459.", grouped with a fixed separator
    /// whatever the locale, so that scripts can read it.
    public var report: String {
        let count = bookCount.map { "the catalogue has \(QuotedText.grouped($0))" } ?? "the catalogue's books could not be counted"
        let books = CountText.counted(total, "book", number: QuotedText.grouped(total))
        return "seeded \(QuotedText.grouped(seeded)) of \(books); \(count)."
    }

    /// The cause and the report on one line.
    public var description: String {
        switch cause {
        case .interrupted:
            return "interrupted: \(report)"
        case .failed(let error as any PersistentStoreFailure) where error.failureKind == .diskFull:
            return "the disk is full: \(report)"
        case .failed(let error):
            let text = String(describing: error).replacingOccurrences(of: "\n", with: " ")
            return "\(text.hasSuffix(".") ? String(text.dropLast()) : text): \(report)"
        }
    }
}
