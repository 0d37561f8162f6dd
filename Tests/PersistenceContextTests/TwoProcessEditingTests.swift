import Foundation
import PersistenceTestSupport
import Testing
import PersistenceSQLite
import ProcessTestSupport

/// Two processes (`context-editor`) edit the same book in one store file, step by step:
/// what wins under each merge policy is what Core Data documents for it, and a process sees
/// the other's saves after `refreshAllObjects()` or a new fetch.
@Suite struct TwoProcessEditingTests {
    /// A store with book 1 (title "Dune", notes "seed", shelf "seed") and two editor
    /// processes that both hold it.
    final class TwoProcesses {
        let store = TemporaryStore()
        let mine: InteractiveProcess
        let theirs: InteractiveProcess

        init() throws {
            let editor = try BuiltProduct.executable(named: "context-editor")
            mine = try InteractiveProcess(editor)
            theirs = try InteractiveProcess(editor)
            try mine.expect("open \(store.url.path)", "insert 1", "set title Dune", "set notes seed", "set shelf seed", "save")
            try theirs.expect("open \(store.url.path)", "fetch 1")
        }

        /// Title, notes and shelf of each stored book.
        func stored() throws -> [[String]] {
            try store.rows("SELECT title, notes, shelf FROM Book").map { $0.map { $0.textValue ?? "nil" } }
        }
    }

    /// They change title and notes and save; I change title and shelf, and save under `policy`.
    @Test(arguments: [
        ("error", ["Dune (theirs)", "theirs", "seed"]),
        ("storeTrump", ["Dune (theirs)", "theirs", "mine"]),
        ("objectTrump", ["Dune (mine)", "theirs", "mine"]),
        ("overwrite", ["Dune (mine)", "seed", "mine"]),
        ("rollback", ["Dune (theirs)", "theirs", "seed"]),
    ])
    func bothEditTheBookAndThePolicyDecidesWhatWins(policy: String, expected: [String]) throws {
        let editors = try TwoProcesses()
        try editors.theirs.expect("set title Dune (theirs)", "set notes theirs", "save")
        try editors.mine.expect("policy \(policy)", "set title Dune (mine)", "set shelf mine")
        let answer = try editors.mine.send("save")
        if policy == "error" {
            #expect(answer.hasPrefix("conflict: The save conflicts with changes in the store: Book/p1 was changed"))
            #expect(answer.contains("title: object \"Dune (mine)\", store \"Dune (theirs)\""))
            #expect(answer.contains("notes: object \"seed\", store \"theirs\""))
            // My changes are kept for another try.
            #expect(try editors.mine.send("show") == "isbn=1 title=Dune (mine) notes=seed shelf=mine")
        } else {
            #expect(answer == "ok")
            #expect(try editors.mine.send("show") == "isbn=1 title=\(expected[0]) notes=\(expected[1]) shelf=\(expected[2])")
        }
        #expect(try editors.stored() == [expected])
    }

    @Test(arguments: ["error", "storeTrump", "objectTrump", "overwrite", "rollback"])
    func anEditOfABookTheOtherProcessDeletedIsAConflictOrLetGo(policy: String) throws {
        let editors = try TwoProcesses()
        try editors.theirs.expect("delete", "save")
        try editors.mine.expect("policy \(policy)", "set title Dune (mine)")
        let answer = try editors.mine.send("save")
        if policy == "error" {
            #expect(answer == "conflict: The save conflicts with changes in the store: "
                + "Book/p1 was deleted from the store since it was read")
        } else {
            #expect(answer == "ok")
            #expect(try editors.mine.send("show") == "inaccessible")
        }
        #expect(try editors.stored().isEmpty)
    }

    @Test(arguments: ["error", "storeTrump", "objectTrump", "overwrite", "rollback"])
    func aDeleteOfABookTheOtherProcessEditedIsAConflictUndoneOrDone(policy: String) throws {
        let editors = try TwoProcesses()
        try editors.theirs.expect("set notes theirs", "save")
        try editors.mine.expect("policy \(policy)", "delete")
        let answer = try editors.mine.send("save")
        switch policy {
        case "error":
            #expect(answer.hasPrefix("conflict: ") && answer.contains("notes: object \"seed\", store \"theirs\""))
            #expect(try editors.stored() == [["Dune", "theirs", "seed"]])
        case "rollback":
            #expect(answer == "ok")
            #expect(try editors.mine.send("show") == "isbn=1 title=Dune notes=theirs shelf=seed")
            #expect(try editors.stored() == [["Dune", "theirs", "seed"]])
        default:
            #expect(answer == "ok")
            #expect(try editors.stored().isEmpty)
        }
    }

    /// Both insert book 2; they save first, then I save under `policy`.
    @Test(arguments: [
        ("error", "Emma (theirs)"), ("storeTrump", "Emma (theirs)"), ("objectTrump", "Emma (mine)"),
        ("overwrite", "Emma (mine)"), ("rollback", "Emma (theirs)"),
    ])
    func bothInsertTheSameISBNAndThePolicyDecidesWhichStays(policy: String, expected: String) throws {
        let editors = try TwoProcesses()
        try editors.theirs.expect("insert 2", "set title Emma (theirs)", "save")
        try editors.mine.expect("policy \(policy)", "insert 2", "set title Emma (mine)")
        let answer = try editors.mine.send("save")
        if policy == "error" {
            #expect(answer.hasPrefix("error: ") && answer.contains("isbn = \"2\" is already taken"), "\(answer)")
        } else {
            #expect(answer == "ok")
            #expect(try editors.mine.send("show") == "isbn=2 title=\(expected) notes=nil shelf=nil")
        }
        #expect(try editors.stored().last == [expected, "nil", "nil"])
        #expect(try editors.stored().count == 2)
    }

    @Test(arguments: ["refreshAll", "fetch 1"])
    func aProcessSeesTheOthersSaveAfterARefreshOrANewFetch(step: String) throws {
        let editors = try TwoProcesses()
        try editors.theirs.expect("set title Dune (theirs)", "save")
        #expect(try editors.mine.send("show") == "isbn=1 title=Dune notes=seed shelf=seed")
        try editors.mine.expect(step)
        #expect(try editors.mine.send("show") == "isbn=1 title=Dune (theirs) notes=seed shelf=seed")
        // And its next edit is no conflict.
        try editors.mine.expect("set notes mine", "save")
        #expect(try editors.stored() == [["Dune (theirs)", "mine", "seed"]])
    }

    @Test func aBookTheOtherProcessDeletedIsInaccessibleAfterARefresh() throws {
        let editors = try TwoProcesses()
        try editors.theirs.expect("delete", "save")
        try editors.mine.expect("refreshAll")
        #expect(try editors.mine.send("show") == "inaccessible")
        #expect(try editors.mine.send("fetch 1") == "none")
    }
}

extension InteractiveProcess {
    /// Sends each command and checks that it answers `ok`.
    func expect(_ commands: String...) throws {
        for command in commands {
            let answer = try send(command)
            #expect(answer == "ok", "\(command)")
            if answer != "ok" { return }
        }
    }
}
