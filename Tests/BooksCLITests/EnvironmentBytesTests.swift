import Foundation
import Testing

/// Environment values that are not UTF-8: the time-zone variables crash nothing, and a store
/// path taken from the environment is refused (65) rather than read as another file's name.
@Suite struct EnvironmentBytesTests {
    /// CoreFoundation read TZ (and TZFILE) itself to make the default zone for every date
    /// formatter, and crashed on bytes that are not UTF-8.
    @Test(arguments: ["TZ", "TZFILE"])
    func aTimeZoneVariableThatIsNotUTF8Lists(variable: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.shell(
            #"export "$1"="$(printf 'Europe/Paris\377')"; exec "$BOOKS" --store "$STORE" list --by-month --limit 2"#,
            arguments: [variable])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        #expect(run.stdout.contains("2024"), "\(run)")
    }

    /// `BOOKS_STORE=…/\xFF.sqlite` created `…/�.sqlite`, and an `XDG_DATA_HOME` or `HOME` of
    /// such bytes a folder named with U+FFFD: nothing may be written to a path the user did
    /// not name.
    @Test(arguments: [
        ("BOOKS_STORE", "/\\377.sqlite"), ("XDG_DATA_HOME", "/\\377"), ("HOME", "/\\377"),
    ])
    func aStorePathVariableThatIsNotUTF8IsRefused(variable: String, suffix: String) throws {
        let sandbox = try BooksSandbox()
        for arguments in [["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1"], ["list"]] {
            let run = try ShellRun(
                #"export "$1"="$2$(printf "$3")"; shift 3; exec "$BOOKS" "$@""#,
                arguments: [variable, sandbox.directory.path, suffix] + arguments,
                environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"])
            #expect(run.status == 65, "\(variable) \(arguments): \(run)")
            #expect(run.stderr.hasPrefix("Error: The environment variable \(variable) '"), "\(run)")
            #expect(run.stderr.contains("/\\xFF"), "\(run)")
            #expect(run.stderr.hasSuffix("' is not valid UTF-8; nothing was done.\n"), "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            let files = try sandbox.files()
            #expect(files.isEmpty, "\(variable): \(files)")
        }
    }

    /// A bad variable that the store path does not use is no reason to refuse: `--store`
    /// names the file, and help and `--version` use no store.
    @Test func aBadVariableTheStoreDoesNotUseIsIgnored() throws {
        let sandbox = try BooksSandbox.seeded()
        let listing = try sandbox.shell(
            #"export HOME="$(printf '/\377')" BOOKS_STORE="$(printf '/\377')"; exec "$BOOKS" --store "$STORE" list --limit 1"#)
        #expect(listing.status == 0 && !listing.stdout.isEmpty, "\(listing)")
        for arguments in [["--version"], ["help"]] {
            let run = try sandbox.shell(
                #"export BOOKS_STORE="$(printf '/\377')"; exec "$BOOKS" "$@""#, arguments: arguments)
            #expect(run.status == 0 && !run.stdout.isEmpty, "\(arguments): \(run)")
        }
    }
}
