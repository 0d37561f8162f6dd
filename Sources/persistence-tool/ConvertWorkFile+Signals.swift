#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The work file's paths as C strings, for the signal handler: made before it is installed,
/// since a handler may not allocate. Nil while no convert runs.
nonisolated(unsafe) private var workFilePaths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
/// How many paths `workFilePaths` holds.
private let workFilePathCount = 4

extension ConvertWorkFile {
    /// The signals that end a convert from outside: an interrupt from the terminal, a polite
    /// kill, a closed terminal.
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// While the copy runs, SIGINT, SIGTERM and SIGHUP remove the work file and its journal
    /// before ending the process as they would have: an interrupted convert leaves nothing
    /// beside the destination. The handler only unlinks, resets the signal and raises it
    /// again (all async-signal-safe). A signal the process was started with ignored stays
    /// ignored (`nohup`); one it was started with blocked is unblocked. (SIGKILL cannot be caught: it leaves the hidden work file, never
    /// the destination.)
    func removedOnSignals() {
        let paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: workFilePathCount)
        for (index, suffix) in ["", "-wal", "-shm", "-journal"].enumerated() {
            paths[index] = strdup(path + suffix)
        }
        workFilePaths = paths
        // A signal blocked by the thread that started the process (a runtime's worker thread
        // blocks every one, and a child inherits its mask) would wait until the copy ends.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in Self.signals {
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0,
                unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) != 1  // SIG_IGN
            else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signalNumber in
                if let paths = workFilePaths {
                    for index in 0..<workFilePathCount { if let path = paths[index] { unlink(path) } }
                }
                signal(signalNumber, SIG_DFL)
                raise(signalNumber)
            }
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
            sigaddset(&unblock, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Puts the default handlers back once the copy is in place or removed.
    func restoringSignals() {
        for number in Self.signals {
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0,
                unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) != 1
            else { continue }
            signal(number, SIG_DFL)
        }
        if let paths = workFilePaths {
            workFilePaths = nil
            for index in 0..<workFilePathCount { free(paths[index]) }
            paths.deallocate()
        }
    }
}
