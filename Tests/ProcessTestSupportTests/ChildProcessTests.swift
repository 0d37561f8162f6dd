import Foundation
import ProcessTestSupport
import Testing

/// The test targets' process runner reads both pipes at once, so a child that fills one
/// before writing the other never blocks.
@Suite struct ChildProcessTests {
    @Test func aChildThatFillsStandardErrorFirstIsReadToTheEnd() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "head -c 1000000 /dev/zero >&2; echo done"]
        let run = try ChildProcess.run(process)
        #expect(run.status == 0)
        #expect(run.stderr.count == 1_000_000)
        #expect(run.stdoutText == "done\n")
    }

    @Test func inputIsWrittenWhileOutputIsRead() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cat")
        let input = Data(repeating: 0x61, count: 1_000_000)
        let run = try ChildProcess.run(process, input: input)
        #expect(run.status == 0)
        #expect(run.stdout == input)
    }
}
