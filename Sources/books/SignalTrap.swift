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

    /// Installs the handlers.
    init() {
        caughtSignalNumber.store(0, ordering: .sequentiallyConsistent)
        for number in Self.signals {
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
