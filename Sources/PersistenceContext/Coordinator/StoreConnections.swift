import Foundation
import PersistenceStore
import Synchronization

/// A coordinator's connections to its store: one writer, which one thread at a time holds
/// for a whole save, and readers, each lent to one thread for one read.
///
/// Core Data's coordinator serialises every request; here only writes wait for each other.
/// A fetch on the main thread while a background context saves a large import reads
/// through a reader of its own, which sees the store as of the last commit (SQLite's WAL),
/// instead of waiting for the import's transaction. A store that cannot open readers (in
/// memory) serves reads from the writer, after any write in progress.
///
/// `@unchecked Sendable`, argued. The stores are not Sendable (a connection is used by one
/// thread at a time), and a `Mutex` cannot hold them and lend them out (a value taken out of
/// one must be `sending`, which a store kept for reuse is not); nor can it replace
/// `writeLock`, which a save re-enters. So the exclusion is by locks, in full:
/// - `writer` is used only while `writeLock` is held, by the thread holding it
///   (`writerThread`, an `Atomic`, says which, so that a save's own reads use the writer
///   rather than waiting for it); `unsafeWriter` is the one exception, for tools and tests on
///   the opening thread before any context runs, and for the remote-save listener's start.
/// - `idleReaders`, `lent` and `opensReaders` are read and written only under `poolLock`;
///   a reader is either in `idleReaders` (used by nobody) or lent to exactly one thread
///   (`lent`), whose nested reads share it, and it goes back when that thread's outermost
///   read ends.
/// - the rest is `let` and Sendable.
///
/// `ConcurrencyStressTests` reads and saves through one set of connections from several
/// queues at once; CI runs it under ThreadSanitizer and AddressSanitizer.
final class StoreConnections: @unchecked Sendable {
    private let writer: any PersistentStore
    /// Held for a whole write; recursive, so that a save may call into a load of the same thread.
    private let writeLock = NSRecursiveLock()
    /// The thread holding `writeLock` (its `pthread_self()`), or 0.
    private let writerThread = Atomic<UInt>(0)
    private let poolLock = NSLock()
    /// Readers no thread is using; at most `maximumIdleReaders` are kept open.
    private var idleReaders: [any PersistentStore] = []
    /// The reader each reading thread holds, and how many of its reads are running: a read
    /// inside a read (a fault fired while a fetch streams) uses the same connection.
    private var lent: [UInt: (reader: any PersistentStore, depth: Int)] = [:]
    /// Whether the store opens readers; false for an in-memory store, or once closed.
    private var opensReaders = true
    private static let maximumIdleReaders = 4

    init(writer: any PersistentStore) {
        self.writer = writer
    }

    /// The writer, used without the lock: only for tools and tests on the opening thread.
    var unsafeWriter: any PersistentStore { writer }

    /// Runs `body` holding the writer.
    func write<T>(_ body: (any PersistentStore) throws -> T) throws -> T {
        writeLock.lock()
        // A write inside a write of the same thread (a save inside a bulk load) keeps the mark.
        let nested = writerThread.load(ordering: .relaxed) == Self.currentThread
        if !nested { writerThread.store(Self.currentThread, ordering: .relaxed) }
        defer {
            if !nested { writerThread.store(0, ordering: .relaxed) }
            writeLock.unlock()
        }
        return try body(writer)
    }

    /// Runs `body` with a reader, or with the writer on the thread that holds it or when
    /// the store has no readers.
    func read<T>(_ body: (any PersistentStore) throws -> T) throws -> T {
        if writerThread.load(ordering: .relaxed) == Self.currentThread { return try body(writer) }
        guard let reader = try checkOutReader() else { return try write(body) }
        defer { checkIn() }
        return try body(reader)
    }

    /// Closes every connection; reads and writes after fail as the closed writer fails.
    func close() throws {
        try write { writer in
            poolLock.lock()
            let readers = idleReaders
            idleReaders = []
            opensReaders = false
            poolLock.unlock()
            for reader in readers { try? reader.close() }
            try writer.close()
        }
    }

    // MARK: - Internals

    private static var currentThread: UInt { UInt(pthread_self()) }

    /// The reader this thread holds, an idle one or a new one; nil when the store has none
    /// to give.
    private func checkOutReader() throws -> (any PersistentStore)? {
        let thread = Self.currentThread
        poolLock.lock()
        if let held = lent[thread] {
            lent[thread]?.depth += 1
            poolLock.unlock()
            return held.reader
        }
        if let reader = idleReaders.popLast() {
            lent[thread] = (reader, 1)
            poolLock.unlock()
            return reader
        }
        let opens = opensReaders
        poolLock.unlock()
        guard opens else { return nil }
        // Opened outside both locks: opening a file takes a while, and a reader must not
        // wait for a write (`openReader()` reads only what the store fixed when it opened).
        guard let reader = try writer.openReader() else {
            poolLock.lock()
            opensReaders = false
            poolLock.unlock()
            return nil
        }
        poolLock.lock()
        lent[thread] = (reader, 1)
        poolLock.unlock()
        return reader
    }

    /// Ends one read of this thread; its last returns the reader to the pool.
    private func checkIn() {
        let thread = Self.currentThread
        poolLock.lock()
        guard let held = lent[thread] else {
            poolLock.unlock()
            return
        }
        if held.depth > 1 {
            lent[thread]?.depth -= 1
            poolLock.unlock()
            return
        }
        lent[thread] = nil
        let keeps = opensReaders && idleReaders.count < Self.maximumIdleReaders
        if keeps { idleReaders.append(held.reader) }
        poolLock.unlock()
        if !keeps { try? held.reader.close() }
    }
}
