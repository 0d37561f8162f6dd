import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// An empty store path is a usage error (64) in every store command, as `books --store ''`
/// is: `store create ''` used to say that the current directory's parent "does not exist".
@Suite struct EmptyStorePathTests {
    static let commands: [[String]] = [
        ["create"], ["export"], ["check"], ["migrate"], ["delete", "--id", "Mood/p1"],
    ]

    @Test(arguments: commands)
    func anEmptyStorePathIsAUsageError(command: [String]) throws {
        let arguments = ["store", command[0], ""] + command.dropFirst() + ["--model", ModelFixtures.moody.path]
        let run = try ToolRun(arguments)
        #expect(run.status == 64, "\(command): \(run)")
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.hasPrefix("Error: The store path is empty"), "\(run)")
    }
}
