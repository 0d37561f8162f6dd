import Foundation

/// A value guarded by a lock: the state of a Sendable type that threads share
/// (`ManagedObjectModel`'s contents, the `ValueTransformers` registry).
///
/// Why not `Mutex` from Synchronization, which the compiler checks: on Linux, ThreadSanitizer
/// cannot see `Mutex`'s synchronization when the lock is contended (its slow path hands the
/// lock over in the kernel, in code the sanitizer does not instrument), so it reports two
/// accesses made under the lock as a race. `ConcurrencyStressTests` did exactly that with a
/// `Mutex`-guarded registry. An `NSLock` is a `pthread_mutex_t`, which ThreadSanitizer
/// intercepts, so CI's sanitizer runs check the code that uses this type instead of
/// flagging it.
///
/// `@unchecked Sendable`, argued: `value` is read and written only inside `withLock`, under
/// `lock`, by one thread at a time; `withLock` hands out no reference to it (its result is
/// `Sendable`, a copy), and `Value` is `Sendable`, so nothing reachable from it is shared
/// unguarded. `ConcurrencyStressTests` runs both users from many threads at once under
/// ThreadSanitizer and AddressSanitizer.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    package func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
