import Foundation
import Testing

/// `books check` on a catalogue whose schema SQLite cannot read (a file cut short) says it
/// is damaged and why (exit 1), rather than failing with SQLite's raw error.
@Suite struct CheckUnreadableStoreTests {
    @Test func aCatalogueCutShortIsReportedDamaged() throws {
        let sandbox = try BooksSandbox.seeded()
        try Data(try Data(contentsOf: sandbox.store).prefix(3_000)).write(to: sandbox.store)
        let run = try sandbox.run(["check"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout == "SQLite cannot read the file: database disk image is malformed\n", "\(run)")
        #expect(run.stderr == "Error: The catalogue \(sandbox.store.path) is damaged: 1 problem found.\n", "\(run)")
        #expect(try sandbox.files() == ["Books.sqlite"])
    }
}
