import Foundation
import Testing

@testable import BookCatalog

/// Only well-formed locale and time-zone names reach Foundation and ICU: anything else is
/// the C locale (or UTC), and the locale that is ignored can be named.
@Suite struct LocaleNameValidationTests {
    @Test(arguments: [
        "C", "POSIX", "C.UTF-8", "", "fr_FR.UTF-8", "de_DE.utf8", "sr_RS@latin", "es_419.UTF-8",
        "ast_ES", "en_US.ISO-8859-15@euro", "ja_JP.eucJP",
    ])
    func wellFormedNamesAreUsable(value: String) {
        #expect(UserEnvironment.isUsableLocaleName(value))
    }

    @Test(arguments: [
        "luxembourgish", "garbage value", "f_FR", "fr_FRA", "/etc/passwd", "@", ".", "_", "fr_FR.",
        "fr_FR@", "en_US.UTF-8@euro@euro", "ü_ÜÜ", "zh_Hans_CN", "en_US." + String(repeating: "8", count: 17),
        "en_US@" + String(repeating: "m", count: 17), String(repeating: "x", count: 10_000), "en_US.UTF-8;x",
    ])
    func anythingElseIsNotAndBecomesPOSIX(value: String) {
        #expect(!UserEnvironment.isUsableLocaleName(value))
        #expect(UserEnvironment.localeIdentifier(posix: value) == UserEnvironment.posixLocaleIdentifier)
    }

    @Test func theUnusableVariablesAreListedAndTheOneInEffectNamed() {
        let environment = ["LANG": "luxembourgish", "LC_TIME": "fr_FR.UTF-8", "LC_PAPER": "xx yy", "HOME": "/x y"]
        #expect(UserEnvironment.unusableLocaleVariables(in: environment) == ["LANG", "LC_PAPER"])
        // LC_TIME is usable, but prices and numbers fall back to LANG.
        #expect(UserEnvironment.unusableLocaleInEffect(in: environment)! == ("LANG", "luxembourgish"))
        #expect(UserEnvironment.unusableLocaleInEffect(in: ["LANG": "luxembourgish", "LC_ALL": "C"]) == nil)
        #expect(UserEnvironment.unusableLocaleInEffect(in: [:]) == nil)
    }

    @Test(arguments: [
        String(repeating: "A", count: 5_000), "../../etc/passwd", "Europe/../../x", "\u{1B}[31m", "Asia/Tokyo\u{0}",
        "Europe/" + String(repeating: "Paris", count: 20), "a b",
    ])
    func hostileTimeZoneNamesAreUTC(value: String) {
        #expect(UserEnvironment.timeZone(tz: value, systemZone: .gmt).secondsFromGMT() == 0)
    }

    @Test func tzDatabaseNamesStillWork() {
        #expect(UserEnvironment.timeZone(tz: "Asia/Tokyo").identifier == "Asia/Tokyo")
        #expect(UserEnvironment.timeZone(tz: ":America/Argentina/Buenos_Aires").identifier == "America/Argentina/Buenos_Aires")
        #expect(UserEnvironment.timeZone(tz: "Etc/GMT+5").secondsFromGMT() == -5 * 3600)
    }
}
