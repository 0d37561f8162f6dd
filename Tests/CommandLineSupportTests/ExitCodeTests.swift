import CommandLineSupport
import Testing

/// One set of exit statuses for both executables, from `sysexits.h`.
@Suite struct ExitCodeTests {
    @Test func statusesFollowSysexits() {
        #expect(ExitCode.success.rawValue == 0)
        #expect(ExitCode.runtimeError.rawValue == 1)
        #expect(ExitCode.usage.rawValue == 64)
        #expect(ExitCode.dataError.rawValue == 65)
        #expect(ExitCode.noInput.rawValue == 66)
        #expect(UsageError.Reason.missingArgument("<x>") != .missingArgument("<y>"))
    }

    @Test func aStopBySignalExitsAsTheShellExpects() {
        #expect(ExitCode.signal(2).rawValue == 130)
        #expect(ExitCode.signal(15).rawValue == 143)
        #expect(ExitCode.signal(1).description == "129")
    }
}
