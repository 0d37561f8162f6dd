import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built binary with its standard output or standard error on a pseudo-terminal: the
/// color swatch and the progress bar appear there, and never in a pipe or under `NO_COLOR`.
@Suite struct TerminalOutputTests {
    /// What a run wrote to the terminal and to the other (piped) stream.
    struct TerminalRun {
        var status: Int32
        var terminal: String
        var piped: String
    }

    /// Runs `books` with standard output (or standard error) on a new pseudo-terminal and the
    /// other stream on a pipe, reading the terminal while the process runs.
    static func run(
        _ arguments: [String], sandbox: BooksSandbox, terminalIsStderr: Bool = false,
        extra: [String: String] = [:]
    ) throws -> TerminalRun {
        let pty = try TerminalTests.PseudoTerminal()
        var environment = sandbox.environment(extra: extra)
        if extra["NO_COLOR"] == nil { environment["NO_COLOR"] = nil }
        environment["TERM"] = extra["TERM"] ?? "xterm-256color"
        let process = Process()
        process.executableURL = try BooksRun.executable()
        process.arguments = ["--store", sandbox.store.path] + arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let terminal = FileHandle(fileDescriptor: pty.follower, closeOnDealloc: false)
        let pipe = Pipe()
        process.standardOutput = terminalIsStderr ? pipe : terminal
        process.standardError = terminalIsStderr ? terminal : pipe

        let captured = Captured()
        let reading = DispatchGroup()
        reading.enter()
        DispatchQueue.global().async { [leader = pty.leader] in
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = read(leader, &buffer, buffer.count)
                if count <= 0 { break }  // EIO once no process holds the follower open
                captured.append(buffer[0..<count])
            }
            reading.leave()
        }
        try process.run()
        let piped = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        _ = close(pty.follower)
        reading.wait()
        _ = close(pty.leader)
        return TerminalRun(
            status: process.terminationStatus, terminal: String(decoding: captured.data, as: UTF8.self),
            piped: String(decoding: piped, as: UTF8.self))
    }

    final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        var data: Data { lock.withLock { bytes } }
        func append(_ chunk: ArraySlice<UInt8>) { lock.withLock { bytes.append(contentsOf: chunk) } }
    }

    static let escape = "\u{1B}["

    @Test(.enabled(if: TerminalTests.PseudoTerminal.isAvailable))
    func listOnATerminalShowsColorSwatches() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try Self.run(["list", "--limit", "3"], sandbox: sandbox)
        #expect(run.status == 0, "\(run)")
        let swatches = run.terminal.components(separatedBy: "\u{1B}[48;2;").count - 1
        #expect(swatches == 3, "expected a swatch per book: \(run.terminal.debugDescription)")
        #expect(run.terminal.contains("  \u{1B}[0m "), "\(run.terminal.debugDescription)")
        #expect(run.piped == "")
    }

    @Test(.enabled(if: TerminalTests.PseudoTerminal.isAvailable))
    func noColorOrADumbTerminalMeansNoEscapesEvenOnATerminal() throws {
        let sandbox = try BooksSandbox.seeded()
        for extra in [["NO_COLOR": "1"], ["TERM": "dumb"]] {
            let run = try Self.run(["list", "--by-month", "--limit", "3"], sandbox: sandbox, extra: extra)
            #expect(run.status == 0, "\(extra): \(run)")
            #expect(run.terminal.contains("Intermezzo"), "\(extra): \(run.terminal.debugDescription)")
            #expect(!run.terminal.contains("\u{1B}"), "\(extra): \(run.terminal.debugDescription)")
        }
        let show = try Self.run(["search", "marquez", "cien"], sandbox: sandbox, extra: ["NO_COLOR": ""])
        #expect(show.terminal.contains(Self.escape), "an empty NO_COLOR does not count")
    }

    @Test(.enabled(if: TerminalTests.PseudoTerminal.isAvailable))
    func seedDrawsAProgressBarOnATerminalAndErasesIt() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try Self.run(
            ["seed", "--count", "3000", "--batch-size", "500"], sandbox: sandbox, terminalIsStderr: true)
        #expect(run.status == 0, "\(run)")
        #expect(run.terminal.contains("\r\u{1B}[2KSeeding ["), "\(run.terminal.debugDescription)")
        #expect(run.terminal.contains("] 100%  3459/3459"), "\(run.terminal.debugDescription)")
        #expect(run.terminal.hasSuffix("\r\u{1B}[2K"), "the bar is erased at the end: \(run.terminal.debugDescription)")
        #expect(
            run.piped == "Seeded 3000 of 3459 books (459 already in the catalogue were left as they are); the catalogue has 3459.\n",
            "stdout stays plain: \(run.piped)")

        // The same seed with standard error in a pipe writes nothing there.
        let piped = try sandbox.run(["seed", "--count", "3000", "--batch-size", "500"], extra: ["TERM": "xterm"])
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.stderr == "")
    }
}
