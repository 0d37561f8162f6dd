import Foundation
import Testing

/// `books redo`: the last undo taken back, newest first, until another command changes the
/// catalogue; a redo is a command that undo takes back.
@Suite struct RedoCommandTests {
    @Test func redoTakesBackTheUndosNewestFirstAndUndoTakesBackARedo() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--rating", "5", "--tag", "+x"]).status == 0)
        #expect(try sandbox.run(["delete", "f7f6485e", "--yes"]).status == 0)
        #expect(try sandbox.run(["undo"]).stdout.hasPrefix("Undid books delete"))
        #expect(try sandbox.run(["undo"]).stdout.hasPrefix("Undid books edit"))

        let first = try sandbox.run(["redo"])
        #expect(first.status == 0 && first.stdout == "Redid books edit (#2): changed 1 book.\n", "\(first)")
        let show = try sandbox.run(["show", "a9ef420f"]).stdout
        #expect(show.contains("Rating:    5/5\n") && show.contains("Tags:      x\n"), "\(show)")
        let second = try sandbox.run(["redo"])
        #expect(second.stdout == "Redid books delete (#3): removed 1 book.\n", "\(second)")
        #expect(try sandbox.bookCount() == 458)

        let nothing = try sandbox.run(["redo"])
        #expect(nothing.status == 1 && nothing.stdout.isEmpty && nothing.stderrLines.filter { !$0.isEmpty }.count == 1, "\(nothing)")
        #expect(nothing.stderr.hasPrefix("Error: Nothing to redo"), "\(nothing)")

        // A redo is undone like any command.
        let undo = try sandbox.run(["undo"])
        #expect(undo.stdout.hasPrefix("Undid books redo"), "\(undo)")
        #expect(try sandbox.bookCount() == 459)
    }

    @Test func aCommandAfterAnUndoEndsWhatCanBeRedone() throws {
        let sandbox = try BooksSandbox.seeded()
        #expect(try sandbox.run(["edit", "a9ef420f", "--rating", "5"]).status == 0)
        #expect(try sandbox.run(["undo"]).status == 0)
        #expect(try sandbox.run(["edit", "a9ef420f", "--rating", "3"]).status == 0)
        let before = try Data(contentsOf: sandbox.store)
        let redo = try sandbox.run(["redo"])
        #expect(redo.status == 1 && redo.stderr.hasPrefix("Error: Nothing to redo"), "\(redo)")
        #expect(try Data(contentsOf: sandbox.store) == before)
        #expect(try sandbox.run(["show", "a9ef420f"]).stdout.contains("Rating:    3/5\n"))
    }
}
