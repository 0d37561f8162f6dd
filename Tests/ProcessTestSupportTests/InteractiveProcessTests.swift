import Foundation
import ProcessTestSupport
import Testing

/// The driver of a child kept running between a test's steps answers line by line, drains
/// standard error all along, and fails (rather than hangs) when the child stops answering.
@Suite struct InteractiveProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test func eachCommandGetsItsAnswerLineWhileStandardErrorIsDrained() throws {
        // Floods standard error before each answer: an undrained pipe would block it.
        let script = "while read line; do head -c 100000 /dev/zero >&2; echo \"got $line\"; done"
        let child = try InteractiveProcess(Self.shell, arguments: ["-c", script])
        #expect(try child.send("one") == "got one")
        #expect(try child.send("two words") == "got two words")
        #expect(child.finish() == 0)
    }

    @Test func aChildThatExitsWithoutAnsweringIsAFailureWithItsStandardError() throws {
        let child = try InteractiveProcess(Self.shell, arguments: ["-c", "read line; echo broken >&2; exit 3"])
        let failure = try #require(throws: InteractiveProcess.Failure.self) { try child.send("hello") }
        #expect(failure.reason.contains("hello"))
        #expect(child.finish() == 3)
    }

    @Test func aChildThatDoesNotAnswerInTimeIsAFailure() throws {
        let child = try InteractiveProcess(Self.shell, arguments: ["-c", "read line; exec sleep 5"], timeout: 1)
        #expect(throws: InteractiveProcess.Failure.self) { try child.send("hello") }
    }
}
