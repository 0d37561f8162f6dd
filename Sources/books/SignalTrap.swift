import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The last signal ``SignalTrap`` caught, 0 for none. An atomic, because the handler runs
/// between any two instructions of the main thread; storing to it is all the handler does
/// (async-signal-safe).
private let caughtSignalNumber = Atomic<Int32>(0)

/// While a long write runs (`books seed`), SIGINT, SIGTERM and SIGHUP are caught instead of
/// ending the process: the handler only notes the signal, and the writer, asking
/// ``caughtSignal`` between transactions, stops cleanly and reports what it kept.
///
/// ``restore()`` puts back the handlers that were there before (the default ones, which
/// end the process), so a signal after the write does what it always did.
///
/// Not `Sendable`: install and restore it on one thread.
final class SignalTrap {
    /// The signals caught: an interrupt from the terminal, a polite kill, a closed terminal.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private var previous: [(Int32, sigaction)] = []
    private var previousMask = sigset_t()
    private var changedMask = false

    /// Installs the handlers, and unblocks the signals for the time of the trap.
    ///
    /// A signal the process was started with ignored stays ignored: `nohup` ignores SIGHUP
    /// and a shell ignores SIGINT in its background jobs, and both mean it. A blocked one is
    /// unblocked: a process inherits the mask of the thread that started it, and a runtime's
    /// worker thread blocks every signal without meaning anything for its children.
    init() {
        caughtSignalNumber.store(0, ordering: .sequentiallyConsistent)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in Self.signals {
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0, !Self.isIgnored(current) else { continue }
            sigaddset(&unblock, number)
            var action = sigaction()
            #if canImport(Darwin)
                action.__sigaction_u.__sa_handler = { caughtSignalNumber.store($0, ordering: .sequentiallyConsistent) }
            #else
                action.__sigaction_handler.sa_handler = { caughtSignalNumber.store($0, ordering: .sequentiallyConsistent) }
            #endif
            sigemptyset(&action.sa_mask)
            // Restart interrupted reads and writes: the signal is answered between
            // transactions, not by failing the one under way.
            action.sa_flags = SA_RESTART
            var old = sigaction()
            if sigaction(number, &action, &old) == 0 { previous.append((number, old)) }
        }
        changedMask = pthread_sigmask(SIG_UNBLOCK, &unblock, &previousMask) == 0
    }

    /// Whether `action` ignores its signal: its handler is `SIG_IGN`.
    ///
    /// An unsafe cast, argued: C defines `SIG_IGN` as `((__sighandler_t)1)`, a function pointer
    /// that is never called, only compared; Swift cannot compare function pointers, so the
    /// handler's bits are read as an `Int` (an optional `@convention(c)` function is one
    /// pointer wide, nil being 0, as is `Int`) and compared with 1.
    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Darwin)
            return unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self) == 1
        #else
            return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1  // SIG_IGN
        #endif
    }

    /// The signal caught since the trap was installed, if any.
    var caughtSignal: Int32? {
        let number = caughtSignalNumber.load(ordering: .sequentiallyConsistent)
        return number == 0 ? nil : number
    }

    /// Puts back the handlers that were there before; safe to call more than once.
    func restore() {
        for (number, old) in previous {
            var action = old
            sigaction(number, &action, nil)
        }
        previous.removeAll()
        if changedMask {
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            changedMask = false
        }
    }

    /// "SIGINT" for SIGINT, and so on; "signal N" for others.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(number)"
        }
    }
}
