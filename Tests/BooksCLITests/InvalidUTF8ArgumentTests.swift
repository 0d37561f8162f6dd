import Foundation
import Testing

/// An argument whose bytes are not UTF-8 is refused (65, naming it) before anything is
/// done, instead of being read with U+FFFD in place of its bytes.
@Suite struct InvalidUTF8ArgumentTests {
    @Test func anInvalidTitleIsRefusedAndNothingIsAdded() throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try Data(contentsOf: sandbox.store)
        let run = try sandbox.shell(
            #"exec "$BOOKS" --store "$STORE" add --title "$(printf 'caf\351')" --author A --date 2020-01-01 --price 1"#)
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr == "Error: The argument 5 'caf\\xE9' (after '--title') is not valid UTF-8; nothing was done.\n", "\(run)")
        #expect(try Data(contentsOf: sandbox.store) == before)
    }

    @Test(arguments: [
        #""$BOOKS" --store "$STORE" search "$(printf '\377\376')""#,
        #""$BOOKS" --store "$STORE" list --where "$(printf 'title == \"\300\257\"')""#,
        #""$BOOKS" --store "$(printf '/tmp/\355\240\200.sqlite')" list"#,
        #""$BOOKS" "$(printf 'lis\342\202')""#,
        #""$BOOKS" --store "$STORE" add --title T --author "$(printf 'A\200')" --date 2020-01-01 --price 1"#,
    ])
    func anyInvalidArgumentIsRefusedBeforeTheStoreIsOpened(script: String) throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.shell(script)
        #expect(run.status == 65, "\(run)")
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.contains("is not valid UTF-8"), "\(run)")
        #expect(run.stdout.isEmpty)
        #expect(try sandbox.files().isEmpty)
    }

    @Test func aLongInvalidArgumentIsQuotedInPart() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.shell(#"exec "$BOOKS" search "$(head -c 20000 /dev/zero | tr '\0' 'a')$(printf '\377')""#)
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.count < 300, "\(run)")
        #expect(run.stderr.contains("…"))
    }

    @Test func validUTF8IsKeptAsTyped() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.shell(
            #"exec "$BOOKS" --store "$STORE" add --title "$(printf 'Caf\303\251 \360\237\223\232')" --author A --date 2020-01-01 --price 1"#)
        #expect(run.status == 0, "\(run)")
        let list = try sandbox.run(["search", "Café"])
        #expect(list.stdout.contains("Café 📚"), "\(list)")
    }
}
