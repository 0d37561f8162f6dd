import Foundation
import ProcessTestSupport

extension BooksSandbox {
    /// Runs `books --store STORE arguments…` with `input` on standard input.
    func run(_ arguments: [String], input: Data) throws -> BooksRun {
        try BooksRun(["--store", store.path] + arguments, environment: environment(), standardInput: .data(input))
    }

    /// Runs `books --store STORE arguments…` with standard input a pseudo-terminal, to which
    /// `answer` is typed.
    func run(_ arguments: [String], typing answer: String) throws -> BooksRun {
        try BooksRun(["--store", store.path] + arguments, environment: environment(), standardInput: .terminal(answer))
    }

    /// Writes `contents` to a file in the sandbox and returns its path.
    func file(_ name: String, _ contents: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url.path
    }

    /// Writes `text` to a file in the sandbox and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        try file(name, Data(text.utf8))
    }
}

extension BooksRun {
    /// What a run reads on standard input.
    enum StandardInput {
        /// These bytes, then end of input.
        case data(Data)
        /// A pseudo-terminal, on which this text is typed.
        case terminal(String)
    }

    /// Runs `books` as ``init(_:environment:executable:)`` does, with `standardInput`.
    init(_ arguments: [String], environment: [String: String], standardInput: StandardInput) throws {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.environment = environment
        let run: ChildProcessOutput
        switch standardInput {
        case .data(let data):
            run = try ChildProcess.run(process, input: data)
        case .terminal(let answer):
            let terminal = try TerminalTests.PseudoTerminal()
            defer { terminal.close() }
            process.standardInput = FileHandle(fileDescriptor: terminal.follower, closeOnDealloc: false)
            _ = answer.utf8CString.withUnsafeBufferPointer { write(terminal.leader, $0.baseAddress, $0.count - 1) }
            run = try ChildProcess.run(process)
        }
        status = run.status
        stdoutData = run.stdout
        stdout = run.stdoutText
        stderr = run.stderrText
    }
}
