#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
///
/// ```swift
/// let bar = ProgressBar(total: 10_000, label: "Seeding")
/// for i in 0..<10_000 { …; bar.update(done: i + 1) }
/// bar.finish()
/// ```
///
/// draws `Seeding [##########----------]  50%  5000/10000`, redrawn in place with `\r` at
/// most about 10 times a second (and once more on reaching the total), so updating it on
/// every row costs next to nothing. ``finish()`` erases the line, leaving the terminal as it
/// was for the command's own output. In a pipe or a file it writes nothing at all.
///
/// Not `Sendable`: update it from one thread.
final class ProgressBar {
    /// The count at which the work is complete.
    private(set) var total: Int
    /// The text before the bar.
    let label: String
    /// Whether anything is drawn.
    let isEnabled: Bool

    private let output: (String) -> Void
    private let now: () -> UInt64
    private let width: Int
    private var lastDraw: UInt64?
    private var hasDrawn = false

    /// The shortest time between two redraws, in nanoseconds (0.1 s).
    static let redrawInterval: UInt64 = 100_000_000

    /// Creates a bar for standard error; it draws only if standard error is a terminal.
    convenience init(total: Int, label: String = "") {
        let fd = STDERR_FILENO
        self.init(
            total: total, label: label, isEnabled: Terminal.isTerminal(fd),
            width: Terminal.columns(fd) ?? 80,
            output: { Terminal.write($0, to: fd) }, now: ProgressBar.monotonicNanoseconds)
    }

    /// Creates a bar that writes with `output` when `isEnabled`, reading time from `now`
    /// (monotonic nanoseconds); for tests and other streams.
    init(
        total: Int, label: String, isEnabled: Bool, width: Int,
        output: @escaping (String) -> Void, now: @escaping () -> UInt64
    ) {
        self.total = max(total, 0)
        self.label = label
        self.isEnabled = isEnabled
        self.width = max(width, 20)
        self.output = output
        self.now = now
    }

    /// Records that `done` units are complete, redrawing if 0.1 s has passed since the last
    /// drawing or `done` reached the total.
    func update(done: Int) {
        guard isEnabled else { return }
        let time = now()
        let isComplete = done >= total
        if let lastDraw, time &- lastDraw < Self.redrawInterval, !isComplete { return }
        lastDraw = time
        hasDrawn = true
        output("\r" + Terminal.ANSI.eraseLine + line(done: done))
    }

    /// Records that `done` of `total` units are complete: for work that learns its total
    /// only once it has begun (an undo, after reading the history).
    func update(done: Int, total: Int) {
        self.total = max(total, 0)
        update(done: done)
    }

    /// Erases the bar, if one was drawn, and leaves the cursor at the start of the line.
    func finish() {
        guard isEnabled, hasDrawn else { return }
        hasDrawn = false
        output("\r" + Terminal.ANSI.eraseLine)
    }

    /// The text of the bar for `done` units, fitted to the width less one column (so that
    /// the terminal never wraps it).
    func line(done: Int) -> String {
        let done = min(max(done, 0), total)
        let fraction = total == 0 ? 1.0 : Double(done) / Double(total)
        let percent = String(Int(fraction * 100))
        let counts = "\(done)/\(total)"
        let tail =
            " " + String(repeating: " ", count: max(0, 3 - percent.count)) + percent
            + "%  " + counts
        let head = label.isEmpty ? "" : label + " "
        let barWidth = max(10, width - 1 - head.count - tail.count - 2)
        let filled = Int(fraction * Double(barWidth))
        return head + "[" + String(repeating: "#", count: filled)
            + String(repeating: "-", count: barWidth - filled) + "]" + tail
    }

    /// Monotonic time in nanoseconds (`CLOCK_MONOTONIC`).
    static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
