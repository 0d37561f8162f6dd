import Foundation
import Testing

/// No value of a locale or time-zone variable crashes a command: an unusable locale is the
/// C locale, said once on standard error.
@Suite struct HostileEnvironmentTests {
    /// Values that crashed ICU (`LANG=luxembourgish` segfaulted every listing) or that are
    /// no locale name at all.
    static let hostileLocales = [
        "luxembourgish", String(repeating: "x", count: 40), "en_US.UTF-8@" + String(repeating: "m", count: 200),
        "de_DE." + String(repeating: "c", count: 100), "fr_FR.UTF-8@euro@euro", "@", ".", "_", "ü_ÜÜ.UTF-8",
        "en_US.UTF-8; rm -rf /", "sr_RS@latiiiiiiiiiiiiiiiiiiiiin", "zh_Hans_CN.UTF-8",
    ]

    @Test(arguments: hostileLocales)
    func anUnusableLangListsInTheCLocaleWithOneNote(value: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["list", "--limit", "3"], lang: value)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutLines.filter { !$0.isEmpty }.count == 3, "\(run)")
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.hasPrefix("books: ignoring unusable locale \""), "\(run)")
        #expect(run.stderr.hasSuffix("in LANG; using C\n"), "\(run)")
    }

    @Test(arguments: ["LC_ALL", "LC_TIME", "LC_MONETARY", "LC_NUMERIC", "LC_MESSAGES", "LC_CTYPE", "LC_COLLATE"])
    func anUnusableValueInAnyLocaleVariableCrashesNothing(variable: String) throws {
        let sandbox = try BooksSandbox.seeded()
        for arguments in [["list", "--by-month", "--limit", "2"], ["search", "soledad"]] {
            let run = try sandbox.run(arguments, extra: [variable: "luxembourgish"])
            #expect(run.status == 0, "\(variable) \(arguments): \(run)")
            #expect(!run.stdout.isEmpty, "\(run)")
        }
        let show = try sandbox.run(["show", "00000000-0000-0000-0000-000000000001"], extra: [variable: "luxembourgish"])
        #expect(show.status == 1 && show.stderr.contains("no book"), "\(show)")
    }

    @Test func aUsableOrUnsetLocaleSaysNothing() throws {
        let sandbox = try BooksSandbox.seeded()
        for lang in ["C", "POSIX", "C.UTF-8", "fr_FR.UTF-8", "sr_RS@latin", ""] {
            let run = try sandbox.run(["list", "--limit", "1"], lang: lang)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(lang): \(run)")
        }
    }

    @Test func theNoteNamesTheVariableInEffect() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["list", "--limit", "1"], extra: ["LC_ALL": "luxembourgish"])
        #expect(run.stderr == "books: ignoring unusable locale \"luxembourgish\" in LC_ALL; using C\n", "\(run)")
        // A usable LC_ALL hides an unusable LANG: LANG is not in effect, so nothing is said.
        let hidden = try sandbox.run(["list", "--limit", "1"], lang: "luxembourgish", extra: ["LC_ALL": "C"])
        #expect(hidden.status == 0 && hidden.stderr.isEmpty, "\(hidden)")
    }

    @Test(arguments: [
        String(repeating: "A", count: 5_000), "../../../../etc/passwd", "/etc/passwd", "<+99999>-99999",
        "Europe/" + String(repeating: "Paris", count: 100), ":", "EST5EDT,M3.2.0,M11.1.0", "\u{1B}[31m", "Asia/Tokyo\u{0}x",
    ])
    func anyTimeZoneValueLists(tz: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let tz = tz.replacingOccurrences(of: "\u{0}", with: "")
        let run = try sandbox.run(["list", "--by-month", "--limit", "2"], extra: ["TZ": tz])
        #expect(run.status == 0, "\(run)")
        #expect(!run.stdout.isEmpty)
    }
}
