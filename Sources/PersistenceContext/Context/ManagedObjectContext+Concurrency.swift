import Dispatch
import Foundation
import PersistenceModel
import PersistenceStore

/// A context's queue: Core Data's concurrency types, `perform` and `performAndWait`.
///
/// A context is confined to its queue. A private-queue context (`newBackgroundContext()`)
/// owns a serial queue, and every use of it and of its objects belongs in a `perform` or
/// `performAndWait` block. A main-queue context (the container's `viewContext`) belongs to
/// the main queue, the main actor's executor: `perform` runs its block there, and code that
/// runs on no context's queue (the main thread of a command-line program, a test) uses it
/// directly, as Core Data's main-queue context is used on the main thread.
///
/// What crosses between queues is `ObjectID`s and other Sendable values: objects are not
/// Sendable, so Swift 6 refuses to hand one to another queue at compile time. At run time,
/// a context's throwing methods called off its queue throw `ContextConcurrencyError`, and
/// its methods that cannot throw (`rollback()`, `reset()`, `refresh`, the change sets, an
/// object's fault firing and change tracking) run on its queue as `performAndWait` would.
extension ManagedObjectContext {
    /// Where a context runs: Core Data's `NSManagedObjectContextConcurrencyType`.
    public enum ConcurrencyType: Sendable, Hashable {
        /// On the main queue, the main actor's (`mainQueueConcurrencyType`): the view context.
        case mainQueue
        /// On a serial queue of the context's own (`privateQueueConcurrencyType`): a
        /// background context.
        case privateQueue
    }

    /// Runs `block` on the context's queue and returns its result: the way in from any task.
    ///
    /// The block and its result are Sendable: objects stay on the context's queue, and what
    /// leaves it is IDs and values.
    ///
    /// ```swift
    /// let id = try await background.perform {
    ///     let book = try background.insert(Book.self)
    ///     book.title = "Solaris"
    ///     try background.save()
    ///     return book.objectID
    /// }
    /// ```
    ///
    /// - Throws: what `block` throws.
    public func perform<T: Sendable, E: Error>(_ block: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result { () throws(E) -> T in try block() }) }
        }
        return try result.get()
    }

    /// Schedules `block` on the context's queue and returns at once (Core Data's
    /// `perform(_:)` without `await`).
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async(execute: block)
    }

    /// Runs `block` on the context's queue and waits for it: at once when already on it
    /// (calls nest), else on the queue while the caller waits.
    ///
    /// - Throws: what `block` throws.
    public func performAndWait<T, E: Error>(_ block: () throws(E) -> T) throws(E) -> T {
        if isOnQueue { return try block() }
        var result: Result<T, E>?
        queue.sync { result = Result { () throws(E) -> T in try block() } }
        // `sync` ran the block before returning.
        return try result.unsafelyUnwrapped.get()
    }

    // MARK: - Confinement

    /// Whether the running code may use the context: on its private queue, or for a
    /// main-queue context anywhere but on another context's private queue.
    var isOnQueue: Bool {
        let running = DispatchQueue.getSpecific(key: ContextQueue.key)
        switch concurrencyType {
        case .privateQueue: return running == contextQueue.marker
        case .mainQueue: return running == nil
        }
    }

    /// Throws unless the running code may use the context (see `isOnQueue`).
    ///
    /// - Parameter operation: what was attempted, for the error.
    func checkQueue(_ operation: @autoclosure () -> String) throws(ContextConcurrencyError) {
        if !isOnQueue {
            throw ContextConcurrencyError(context: contextDescription, operation: operation())
        }
    }

    /// Runs `body` on the context's queue: at once when already on it, else as
    /// `performAndWait` does. For what cannot throw a `ContextConcurrencyError`.
    func onQueue<T>(_ body: () -> T) -> T {
        if isOnQueue { return body() }
        return performAndWait(body)
    }

    /// "context 'import' (private queue)", for messages.
    var contextDescription: String {
        let kind = concurrencyType == .mainQueue ? "main queue" : "private queue"
        return name.map { "context '\($0)' (\(kind))" } ?? "a \(kind) context"
    }
}

/// A context's serial queue, marked so that code can tell it runs on it.
struct ContextQueue: Sendable {
    /// The key of every context queue's marker.
    static let key = DispatchSpecificKey<UInt>()
    let queue: DispatchQueue
    /// This queue's marker: unique among live context queues.
    let marker: UInt

    /// The main queue, unmarked: main-queue contexts run wherever no private queue runs.
    static var main: ContextQueue { ContextQueue(queue: .main, marker: 0) }

    /// A new serial queue.
    static func makePrivate(label: String) -> ContextQueue {
        let queue = DispatchQueue(label: label)
        let marker = UInt(bitPattern: ObjectIdentifier(queue).hashValue)
        queue.setSpecific(key: key, value: marker)
        return ContextQueue(queue: queue, marker: marker)
    }
}
