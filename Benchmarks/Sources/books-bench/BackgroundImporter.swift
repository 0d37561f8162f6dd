import BookCatalog
import Dispatch
import Foundation
import Persistence
import Synchronization

/// Inserts books through a background context, a save per 1,000, on a thread of its own
/// until stopped (workload 2b).
final class BackgroundImporter: Sendable {
    private let context: ManagedObjectContext
    private let titles: [String]
    private let dates: [Date]
    private struct State {
        var stopping = false
        var imported = 0
        var failure: String?
    }
    private let state = Mutex(State())
    private let firstSave = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private static let booksPerSave = 1_000

    init(context: ManagedObjectContext, titles: [String], dates: [Date]) {
        self.context = context
        self.titles = titles
        self.dates = dates
    }

    /// Starts importing.
    func start() {
        Thread.detachNewThread { [self] in
            var next = 0
            while !state.withLock({ $0.stopping }) {
                do {
                    try context.performAndWait {
                        for _ in 0..<Self.booksPerSave {
                            let book = try context.insert(Book.self)
                            book.uuid = UUID()
                            book.title = titles[next % titles.count]
                            book.publishDate = dates[next % dates.count]
                            next += 1
                        }
                        try context.save()
                        context.reset()
                    }
                } catch {
                    state.withLock { $0.failure = "\(error)" }
                    break
                }
                let count = state.withLock { state in
                    state.imported += Self.booksPerSave
                    return state.imported
                }
                if count == Self.booksPerSave { firstSave.signal() }
            }
            if state.withLock({ $0.imported == 0 }) { firstSave.signal() }
            finished.signal()
        }
    }

    /// Waits until the first save committed: the import is under way.
    func waitForFirstSave() { firstSave.wait() }

    /// Stops after the save under way; returns how many books were imported.
    ///
    /// - Throws: the import's failure, as text.
    func stop() throws -> Int {
        state.withLock { $0.stopping = true }
        finished.wait()
        return try state.withLock { state in
            if let failure = state.failure { throw ImportFailure(message: failure) }
            return state.imported
        }
    }

    struct ImportFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { "the background import failed: \(message)" }
    }
}
