import Foundation
import PersistenceTestSupport
import Testing
import ProcessTestSupport

/// Two processes (`context-editor`) on one store that tracks history: one saves, the other
/// catches up from the persistent history and sees every insert, update (with the changed
/// keys) and delete (with the tombstone's values), and its held object follows.
@Suite struct PersistentHistoryProcessTests {
    @Test func aProcessCatchesUpOnAnotherProcessesSavesThroughTheHistory() throws {
        let store = TemporaryStore()
        let editor = try BuiltProduct.executable(named: "context-editor")
        let writer = try InteractiveProcess(editor)
        let reader = try InteractiveProcess(editor)
        try writer.expect("track \(store.url.path)", "insert 1", "set title Dune", "insert 2", "set title Gone", "save")
        try reader.expect("track \(store.url.path)", "fetch 1", "mark")
        #expect(try reader.send("show") == "isbn=1 title=Dune notes=nil shelf=nil")

        try writer.expect(
            "author writer", "insert 3", "set title Children of Dune", "save",
            "fetch 1", "set title Dune Messiah", "set notes sequel", "save",
            "fetch 2", "delete", "save")
        #expect(try reader.send("catchUp") == "writer: insert Book/p3 | writer: update Book/p1 [notes,title] | "
            + "writer: delete Book/p2 {isbn=2,title=Gone}")
        // The held book was refreshed by the merge, without a fetch.
        #expect(try reader.send("show") == "isbn=1 title=Dune Messiah notes=sequel shelf=nil")
        // Caught up: nothing more until the writer saves again.
        #expect(try reader.send("catchUp") == "")
        try writer.expect("fetch 3", "set shelf Top", "save")
        #expect(try reader.send("catchUp") == "writer: update Book/p3 [shelf]")
    }
}
