import Foundation
import Testing

@testable import BookCatalog

/// Reading the locale and time zone from POSIX environment variables.
@Suite struct UserEnvironmentTests {
    @Test(arguments: [
        ("fr_FR.UTF-8", "fr_FR"), ("de_DE.utf8", "de_DE"), ("ja_JP", "ja_JP"),
        ("en_US.UTF-8@euro", "en_US"), ("C", "en_US_POSIX"), ("POSIX", "en_US_POSIX"),
        ("C.UTF-8", "en_US_POSIX"), ("", "en_US_POSIX"), ("fr", "fr"),
        ("sr_RS@latin", "sr_Latn_RS"), ("uz_UZ.UTF-8@cyrillic", "uz_Cyrl_UZ"),
        ("es_419.UTF-8", "es_419"), ("EN_us", "en_US"), ("ast_ES", "ast_ES"),
        ("garbage value", "en_US_POSIX"), ("f_FR", "en_US_POSIX"), ("fr_FRA", "en_US_POSIX"),
        ("/etc/passwd", "en_US_POSIX"),
    ])
    func posixLocaleNamesBecomeIdentifiers(value: String, identifier: String) {
        #expect(UserEnvironment.localeIdentifier(posix: value) == identifier)
    }

    @Test func lcAllWinsThenTheCategoryThenLang() {
        let all = UserEnvironment(environment: [
            "LC_ALL": "de_DE.UTF-8", "LC_TIME": "fr_FR.UTF-8", "LANG": "ja_JP.UTF-8",
        ])
        #expect(all.timeLocale.identifier == "de_DE")
        #expect(all.monetaryLocale.identifier == "de_DE")

        let split = UserEnvironment(environment: [
            "LC_TIME": "fr_FR.UTF-8", "LC_MONETARY": "de_DE.UTF-8", "LANG": "ja_JP.UTF-8",
        ])
        #expect(split.timeLocale.identifier == "fr_FR")
        #expect(split.monetaryLocale.identifier == "de_DE")
        #expect(split.numericLocale.identifier == "ja_JP")
    }

    @Test func emptyVariablesCountAsUnset() {
        let environment = UserEnvironment(environment: [
            "LC_ALL": "", "LC_TIME": "", "LANG": "fr_FR.UTF-8",
        ])
        #expect(environment.timeLocale.identifier == "fr_FR")
        #expect(UserEnvironment(environment: [:]).timeLocale.identifier == "en_US_POSIX")
    }

    @Test func tzNamesAreReadIncludingThePOSIXForms() {
        func zone(_ tz: String?) -> TimeZone {
            UserEnvironment.timeZone(tz: tz, systemZone: TimeZone(secondsFromGMT: 7 * 3600)!)
        }
        #expect(zone("Europe/Paris").identifier == "Europe/Paris")
        #expect(zone(":Asia/Tokyo").identifier == "Asia/Tokyo")
        #expect(zone("/usr/share/zoneinfo/America/New_York").identifier == "America/New_York")
        #expect(zone("UTC").secondsFromGMT() == 0)
        #expect(zone("CET-1").secondsFromGMT() == 3600)
        #expect(zone("EST+5").secondsFromGMT() == -5 * 3600)
        #expect(zone("<+0530>-5:30").secondsFromGMT() == 5 * 3600 + 1800)
        #expect(zone(nil).secondsFromGMT() == 7 * 3600)
        #expect(zone("").secondsFromGMT() == 7 * 3600)
    }

    @Test func unknownTimeZonesFallBackToUTC() {
        for tz in [
            "Mars/Olympus_Mons", "CET-1CEST,M3.5.0,M10.5.0/3", "../../etc/passwd", "X", "ABC+99",
        ] {
            let zone = UserEnvironment.timeZone(tz: tz, systemZone: TimeZone(secondsFromGMT: 3600)!)
            #expect(zone.secondsFromGMT() == 0, "TZ=\(tz)")
        }
    }

    @Test func systemZoneFollowsTheLocaltimeLink() throws {
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "UserEnvironmentTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appending(path: "localtime").path
        try FileManager.default.createSymbolicLink(
            atPath: link, withDestinationPath: "/usr/share/zoneinfo/Europe/Berlin")
        #expect(UserEnvironment.systemTimeZone(localtimePath: link).identifier == "Europe/Berlin")
        #expect(
            UserEnvironment.systemTimeZone(localtimePath: folder.path + "/none").secondsFromGMT()
                == 0)
    }
}
