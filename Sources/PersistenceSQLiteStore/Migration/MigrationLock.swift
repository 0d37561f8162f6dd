import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The turn of one process at migrating the stores of a folder: an exclusive `flock(2)` on
/// the store's folder, held from before the migration reads its plans until it is done.
///
/// Without it, two processes opening a store of an older version at once both inferred the
/// same plans, both copied the store aside, and the second then either gave up ("other
/// connections wrote to it") or ran its plans on the store the first had just migrated. With
/// it the second waits, reads the plans again, finds the store migrated and does nothing.
///
/// Why the folder and not the store file: a process's POSIX locks on a file, SQLite's
/// among them, are all dropped when the process closes *any* descriptor of that file, so
/// the lock must not be taken through one; a folder's descriptor shares nothing with them.
/// Why not a lock file: it would be left beside the store. The cost is that migrations of
/// different stores in one folder take turns too, which they rarely need to.
///
/// Another thread of the process waits its turn like another process (each takes its own
/// `flock` through its own descriptor). A thread that holds the turn and migrates again
/// inside it (a migration's hook migrating the store, as another process would) keeps it
/// rather than wait for itself.
///
/// Where the folder cannot be opened or locked (a file system without `flock`), the
/// migration runs without a turn: it still checks, under SQLite's write
/// lock, that the store is at the plans' source (see `StoreMigrator.migrate()`).
package struct MigrationLock {
    private let folder: String
    private let descriptor: Int32

    /// The folders whose turn a thread of this process holds: the thread and how many
    /// nested migrations share it.
    private static let holders = Mutex<[String: (thread: pthread_t, depth: Int)]>([:])

    /// Waits for the turn at migrating `storeURL`'s folder.
    package init(storeURL: URL) {
        let folder = storeURL.deletingLastPathComponent().standardizedFileURL.path
        self.folder = folder
        let nested = Self.holders.withLock { holders -> Bool in
            guard let holder = holders[folder], pthread_equal(holder.thread, pthread_self()) != 0 else { return false }
            holders[folder]?.depth += 1
            return true
        }
        guard !nested else {
            descriptor = -1
            return
        }
        var descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
            if result != 0 {
                close(descriptor)
                descriptor = -1
            }
        }
        self.descriptor = descriptor
        Self.holders.withLock { $0[folder] = (pthread_self(), 1) }
    }

    /// Whether this process holds the folder's `flock` (false where it could not be taken),
    /// so that no other process is migrating a store of the folder now.
    var isHeld: Bool { descriptor >= 0 || Self.holders.withLock { $0[folder] != nil } }

    /// Gives the turn to the next thread or process, once the outermost migration of this
    /// thread is done (closing the folder's descriptor releases the `flock`).
    package func release() {
        let folder = folder
        let last = Self.holders.withLock { holders -> Bool in
            guard let holder = holders[folder] else { return true }
            if holder.depth > 1 {
                holders[folder]?.depth -= 1
                return false
            }
            holders[folder] = nil
            return true
        }
        if last, descriptor >= 0 { close(descriptor) }
    }
}
