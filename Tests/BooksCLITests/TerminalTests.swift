import Foundation
import Testing

@testable import books

#if canImport(Glibc)
    import Glibc
#endif

/// Terminal detection, the color rule, escape helpers and the progress bar.
@Suite struct TerminalTests {
    // MARK: - Detection

    /// A pseudo-terminal pair: writing to `follower` looks like writing to a terminal.
    ///
    /// `posix_openpt` and friends are not exported by Swift's Glibc module, so they are looked
    /// up in the C library at run time.
    struct PseudoTerminal {
        var leader: Int32
        var follower: Int32

        static let isAvailable = FileManager.default.fileExists(atPath: "/dev/ptmx")

        init() throws {
            typealias Open = @convention(c) (Int32) -> Int32
            typealias Step = @convention(c) (Int32) -> Int32
            typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
            guard let open = dlsym(nil, "posix_openpt"), let grant = dlsym(nil, "grantpt"),
                let unlock = dlsym(nil, "unlockpt"), let name = dlsym(nil, "ptsname_r")
            else { throw POSIXError(.ENOSYS) }
            leader = unsafeBitCast(open, to: Open.self)(O_RDWR | O_NOCTTY)
            var path = [CChar](repeating: 0, count: 128)
            guard leader >= 0, unsafeBitCast(grant, to: Step.self)(leader) == 0,
                unsafeBitCast(unlock, to: Step.self)(leader) == 0,
                unsafeBitCast(name, to: Name.self)(leader, &path, path.count) == 0
            else { throw POSIXError(.ENODEV) }
            let pathBytes = path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            follower = Glibc.open(String(decoding: pathBytes, as: UTF8.self), O_RDWR | O_NOCTTY)
            guard follower >= 0 else { throw POSIXError(.ENODEV) }
        }

        func close() {
            _ = Glibc.close(follower)
            _ = Glibc.close(leader)
        }
    }

    @Test(.enabled(if: PseudoTerminal.isAvailable))
    func pipesAreNotTerminalsAndPseudoTerminalsAre() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { fds.forEach { _ = close($0) } }
        #expect(!Terminal.isTerminal(fds[1]))
        #expect(Terminal.columns(fds[1]) == nil)

        let pty = try PseudoTerminal()
        defer { pty.close() }
        #expect(Terminal.isTerminal(pty.follower))
        var size = winsize(ws_row: 24, ws_col: 132, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(pty.follower, UInt(TIOCSWINSZ), &size) == 0)
        #expect(Terminal.columns(pty.follower) == 132)
        #expect(Terminal.colorEnabled(for: pty.follower, environment: ["TERM": "xterm"]))
        #expect(!Terminal.colorEnabled(for: fds[1], environment: ["TERM": "xterm"]))
    }

    @Test func colorNeedsATerminalNoNO_COLORAndACapableTERM() {
        #expect(Terminal.colorEnabled(isTerminal: true, environment: [:]))
        #expect(
            Terminal.colorEnabled(
                isTerminal: true, environment: ["NO_COLOR": "", "TERM": "xterm-256color"]))
        #expect(!Terminal.colorEnabled(isTerminal: false, environment: [:]))
        #expect(!Terminal.colorEnabled(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(!Terminal.colorEnabled(isTerminal: true, environment: ["NO_COLOR": "0"]))
        #expect(!Terminal.colorEnabled(isTerminal: true, environment: ["TERM": "dumb"]))
    }

    // MARK: - Escapes

    @Test func swatchIsTwoSpacesOnA24BitBackground() {
        #expect(
            Terminal.swatch(red: 30, green: 144, blue: 255) == "\u{1B}[48;2;30;144;255m  \u{1B}[0m")
        #expect(Terminal.swatch(red: 0, green: 0, blue: 0) == "\u{1B}[48;2;0;0;0m  \u{1B}[0m")
    }

    @Test func styledTextIsPlainWhenDisabled() {
        #expect(
            Terminal.styled("Title", Terminal.ANSI.bold, enabled: true) == "\u{1B}[1mTitle\u{1B}[0m"
        )
        #expect(Terminal.styled("Title", Terminal.ANSI.bold, enabled: false) == "Title")
    }

    // MARK: - Progress bar

    /// A bar with a fake clock, collecting what it writes.
    final class Recorder {
        var writes: [String] = []
        var clock: UInt64 = 1_000_000_000
        lazy var bar = makeBar(total: 1000, enabled: true)

        func makeBar(total: Int, enabled: Bool) -> ProgressBar {
            ProgressBar(
                total: total, label: "Seeding", isEnabled: enabled, width: 60,
                output: { [unowned self] in writes.append($0) }, now: { [unowned self] in clock })
        }
    }

    @Test func disabledBarWritesNothing() {
        let recorder = Recorder()
        let bar = recorder.makeBar(total: 10, enabled: false)
        for done in 0...10 { bar.update(done: done) }
        bar.finish()
        #expect(recorder.writes.isEmpty)
    }

    @Test func barRedrawsAtMostTenTimesASecondButAlwaysAtTheEnd() {
        let recorder = Recorder()
        for done in 0..<1000 {
            recorder.bar.update(done: done)
            recorder.clock += 1_000_000  // 1 ms per unit: 1 s in all
        }
        let beforeEnd = recorder.writes.count
        #expect((9...11).contains(beforeEnd), "drew \(beforeEnd) times in one second")
        recorder.bar.update(done: 1000)
        #expect(recorder.writes.count == beforeEnd + 1)
        #expect(recorder.writes.last?.hasSuffix("] 100%  1000/1000") == true)
        #expect(recorder.writes.allSatisfy { $0.hasPrefix("\r\u{1B}[2K") })
        recorder.bar.finish()
        #expect(recorder.writes.last == "\r\u{1B}[2K")
    }

    @Test func finishWithoutDrawingWritesNothing() {
        let recorder = Recorder()
        recorder.bar.finish()
        #expect(recorder.writes.isEmpty)
    }

    @Test func barLineFitsTheWidthAndShowsProgress() {
        let recorder = Recorder()
        let half = recorder.bar.line(done: 500)
        #expect(half.count == 59)
        #expect(half.hasPrefix("Seeding [#"))
        #expect(half.hasSuffix("-]  50%  500/1000"))
        let filled = half.filter { $0 == "#" }.count, empty = half.filter { $0 == "-" }.count
        #expect(abs(filled - empty) <= 1)
        #expect(recorder.bar.line(done: 5000).hasSuffix("] 100%  1000/1000"))
        #expect(recorder.makeBar(total: 0, enabled: true).line(done: 0).hasSuffix("] 100%  0/0"))
    }

    @Test(.enabled(if: PseudoTerminal.isAvailable))
    func barOnATerminalWritesEscapesAndOnAPipeNothing() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let pipeBar = ProgressBar(
            total: 3, label: "", isEnabled: Terminal.isTerminal(fds[1]), width: 40,
            output: { [fd = fds[1]] in Terminal.write($0, to: fd) },
            now: ProgressBar.monotonicNanoseconds)
        pipeBar.update(done: 3)
        pipeBar.finish()
        close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(read(fds[0], &buffer, 64) == 0)
        close(fds[0])

        let pty = try PseudoTerminal()
        defer { pty.close() }
        let ttyBar = ProgressBar(
            total: 3, label: "", isEnabled: Terminal.isTerminal(pty.follower), width: 40,
            output: { [fd = pty.follower] in Terminal.write($0, to: fd) },
            now: ProgressBar.monotonicNanoseconds)
        ttyBar.update(done: 3)
        let count = read(pty.leader, &buffer, 64)
        #expect(count > 0)
        #expect(
            String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).hasPrefix("\r\u{1B}[2K["))
    }
}
