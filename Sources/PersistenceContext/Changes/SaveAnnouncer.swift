import Synchronization

/// Hands each save of a coordinator's contexts to whoever listens: the coordinator's
/// `contextDidSaves()` streams and the contexts that merge automatically.
///
/// Listeners are called on the saving context's queue, after its transaction committed;
/// each must hand the save on (yield it, or schedule a merge on its own context's queue)
/// rather than work there.
package final class SaveAnnouncer: Sendable {
    /// A listener's registration; `cancel()` ends it.
    package struct Subscription: Sendable {
        fileprivate let announcer: SaveAnnouncer
        fileprivate let number: Int

        /// Stops the listener from hearing of later saves.
        package func cancel() { announcer.listeners.withLock { _ = $0.removeValue(forKey: number) } }
    }

    private let listeners = Mutex<[Int: @Sendable (ContextDidSave) -> Void]>([:])
    private let nextNumber = Mutex(0)

    package init() {}

    /// Registers `listener` for every later save.
    package func subscribe(_ listener: @escaping @Sendable (ContextDidSave) -> Void) -> Subscription {
        let number = nextNumber.withLock { next in
            defer { next += 1 }
            return next
        }
        listeners.withLock { $0[number] = listener }
        return Subscription(announcer: self, number: number)
    }

    /// Tells every listener of `save`.
    func announce(_ save: ContextDidSave) {
        // Called outside the lock: a listener may subscribe or cancel.
        for listener in listeners.withLock({ Array($0.values) }) { listener(save) }
    }
}
