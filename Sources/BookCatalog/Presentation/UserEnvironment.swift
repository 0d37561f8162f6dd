import Foundation

/// The locales and time zone the user chose through the POSIX environment.
///
/// Foundation on Linux does not read the environment for `Locale.current` (it is always
/// `en_001`), so `books` reads the variables itself, the way the C library's `setlocale`
/// does, and passes the result explicitly to every formatter:
///
/// - each category uses `LC_ALL`, else its own variable (`LC_TIME` for dates and month
///   names, `LC_MONETARY` for prices, `LC_NUMERIC` for other numbers, `LC_COLLATE` for the
///   order of text, see ``TextCollation``), else `LANG`; an
///   empty variable counts as unset, as POSIX says;
/// - a value such as `fr_FR.UTF-8`, `de_DE.utf8`, `ja_JP` or `en_US.UTF-8@euro` becomes the
///   locale identifier `fr_FR`, `de_DE`, `ja_JP`, `en_US` (the codeset is dropped: output is
///   always UTF-8; the modifiers `@latin` and `@cyrillic` become a script, as in
///   `sr_RS@latin` → `sr_Latn_RS`; other modifiers are dropped);
/// - `C`, `POSIX`, `C.UTF-8`, nothing at all, or a value that is not of the form
///   `language[_TERRITORY][.codeset][@modifier]` become `en_US_POSIX`, the locale that
///   behaves like C's: English names, `.` decimal separator, and (in ``CatalogFormatter``)
///   no digit grouping; such a value never reaches Foundation or ICU (see
///   ``isUsableLocaleName(_:)``);
/// - `TZ` names the time zone: see ``timeZone(tz:systemZone:)``.
public struct UserEnvironment: Sendable, Equatable {
    /// The locale for dates and month names (`LC_ALL`, `LC_TIME`, `LANG`).
    public var timeLocale: Locale
    /// The locale for prices (`LC_ALL`, `LC_MONETARY`, `LANG`).
    public var monetaryLocale: Locale
    /// The locale for other numbers (`LC_ALL`, `LC_NUMERIC`, `LANG`).
    public var numericLocale: Locale
    /// The time zone for dates (`TZ`, else the system's).
    public var timeZone: TimeZone
    /// The locale whose rules order text in listings (`LC_ALL`, `LC_COLLATE`, `LANG`).
    public var collationLocale: Locale

    /// How listings sort titles, authors and series: the collation of ``collationLocale``;
    /// nil in the C and POSIX locales, whose order is the store's.
    public var collation: TextCollation? { TextCollation(localeIdentifier: collationLocale.identifier) }

    /// The identifier used for the C and POSIX locales.
    public static let posixLocaleIdentifier = "en_US_POSIX"

    /// Reads the locale and time-zone variables from `environment`.
    ///
    /// - Parameter environment: usually `ProcessInfo.processInfo.environment`.
    public init(environment: [String: String]) {
        func locale(_ category: String) -> Locale {
            let value = [environment["LC_ALL"], environment[category], environment["LANG"]]
                .lazy.compactMap { $0 }.first { !$0.isEmpty }
            return Locale(identifier: Self.localeIdentifier(posix: value ?? ""))
        }
        timeLocale = locale("LC_TIME")
        monetaryLocale = locale("LC_MONETARY")
        numericLocale = locale("LC_NUMERIC")
        collationLocale = locale("LC_COLLATE")
        timeZone = Self.timeZone(tz: environment["TZ"])
    }

    /// Creates an environment from explicit values (for tests and for callers that already
    /// know what they want); text is ordered as in `collationLocale`, by default the C
    /// locale's (the store's order).
    public init(
        timeLocale: Locale, monetaryLocale: Locale, numericLocale: Locale, timeZone: TimeZone,
        collationLocale: Locale = Locale(identifier: UserEnvironment.posixLocaleIdentifier)
    ) {
        self.timeLocale = timeLocale
        self.monetaryLocale = monetaryLocale
        self.numericLocale = numericLocale
        self.timeZone = timeZone
        self.collationLocale = collationLocale
    }

    // MARK: - Locale names

    /// The Foundation locale identifier for a POSIX locale name such as `fr_FR.UTF-8`.
    ///
    /// Returns ``posixLocaleIdentifier`` for `C`, `POSIX` (with or without a codeset), the
    /// empty string, and anything that is not a usable name (see ``isUsableLocaleName(_:)``).
    public static func localeIdentifier(posix value: String) -> String {
        parsedLocaleIdentifier(posix: value) ?? posixLocaleIdentifier
    }

    /// Whether `value` is a locale name `books` can use: `C`, `POSIX` (with or without a
    /// codeset), empty (unset), or `language[_TERRITORY][.codeset][@modifier]` with a 2- or
    /// 3-letter language, a 2-letter or 3-digit territory, and a codeset and modifier of at
    /// most 16 letters, digits, `-` or `_`.
    ///
    /// Only such names ever reach Foundation or ICU: ICU crashes on some other values
    /// (`LANG=luxembourgish` made every listing segfault), so anything else is the C locale.
    public static func isUsableLocaleName(_ value: String) -> Bool {
        parsedLocaleIdentifier(posix: value) != nil
    }

    /// The locale variables (`LC_ALL`, `LC_…`, `LANG`) set in `environment` to a value that
    /// is not a usable locale name, sorted by name.
    public static func unusableLocaleVariables(in environment: [String: String]) -> [String] {
        environment.filter { name, value in
            (name == "LANG" || name.hasPrefix("LC_")) && !isUsableLocaleName(value)
        }.keys.sorted()
    }

    /// The first unusable locale name in effect for the categories `books` formats and sorts
    /// with (time, money, numbers, text order), with the variable it came from; `nil` when
    /// all are usable. A command says so once and formats and sorts as in the C locale.
    public static func unusableLocaleInEffect(in environment: [String: String]) -> (variable: String, value: String)? {
        for category in ["LC_TIME", "LC_MONETARY", "LC_NUMERIC", "LC_COLLATE"] {
            guard let variable = ["LC_ALL", category, "LANG"].first(where: { !(environment[$0] ?? "").isEmpty }),
                let value = environment[variable]
            else { continue }
            if !isUsableLocaleName(value) { return (variable, value) }
        }
        return nil
    }

    /// The identifier for a usable name, `nil` for an unusable one.
    private static func parsedLocaleIdentifier(posix value: String) -> String? {
        // Bytes, not characters: a value may be any bytes the environment holds.
        guard value.utf8.count <= 64, value.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        var name = Substring(value.trimmingCharacters(in: .whitespaces))
        if name.isEmpty { return posixLocaleIdentifier }
        var modifier: Substring = ""
        if let at = name.firstIndex(of: "@") {
            modifier = name[name.index(after: at)...]
            name = name[..<at]
            guard isNameTag(modifier) else { return nil }
        }
        if let dot = name.firstIndex(of: ".") {
            guard isNameTag(name[name.index(after: dot)...]) else { return nil }
            name = name[..<dot]
        }
        if name == "C" || name == "POSIX" { return posixLocaleIdentifier }

        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), isLanguage(parts[0]),
            parts.count == 1 || isTerritory(parts[1])
        else { return nil }

        var identifier = parts[0].lowercased()
        switch modifier.lowercased() {
        case "latin": identifier += "_Latn"
        case "cyrillic": identifier += "_Cyrl"
        default: break
        }
        if parts.count == 2 { identifier += "_" + parts[1].uppercased() }
        return identifier
    }

    /// A codeset or modifier: 1 to 16 ASCII letters, digits, `-` or `_`.
    private static func isNameTag(_ part: Substring) -> Bool {
        (1...16).contains(part.count)
            && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    // MARK: - Time zone

    /// The time zone named by a `TZ` value.
    ///
    /// Foundation on Linux already honours `TZ` when it is a tz database name
    /// (`Europe/Paris`, `UTC`, `EST5EDT`), but silently uses UTC for the other forms POSIX
    /// allows; this function reads, in order:
    /// - unset or empty: `systemZone` (by default the zone `/etc/localtime` links to);
    /// - a tz database name, optionally after `:` (`:Europe/Paris`), or a path into a
    ///   `zoneinfo` folder (`/usr/share/zoneinfo/Asia/Tokyo`);
    /// - a fixed POSIX offset without summer time, such as `CET-1` or `<+0530>-5:30` (POSIX
    ///   offsets count west of Greenwich, so `CET-1` is UTC+1);
    /// - anything else (an unknown name, or a POSIX rule with summer time that is not a tz
    ///   database name): UTC, as the C library does.
    public static func timeZone(
        tz value: String?, systemZone: @autoclosure () -> TimeZone = systemTimeZone()
    ) -> TimeZone {
        guard var name = value, !name.isEmpty else { return systemZone() }
        if name.hasPrefix(":") { name.removeFirst() }
        if name.hasPrefix("/"), let range = name.range(of: "/zoneinfo/") {
            name = String(name[range.upperBound...])
        }
        // Only a name spelled as tz database names are reaches Foundation (and ICU): a
        // hostile TZ value must not be able to crash the process.
        if isTimeZoneName(name), let zone = TimeZone(identifier: name)
        {
            return zone
        }
        if let offset = posixFixedOffset(name), let zone = TimeZone(secondsFromGMT: offset) {
            return zone
        }
        return utc
    }

    /// The system's time zone: the tz database name `/etc/localtime` links to, else UTC.
    public static func systemTimeZone() -> TimeZone {
        systemTimeZone(localtimePath: "/etc/localtime")
    }

    /// UTC.
    public static let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone(identifier: "UTC") ?? .gmt

    // MARK: - Internals

    /// The zone a `localtime` symbolic link points into, else UTC.
    package static func systemTimeZone(localtimePath: String) -> TimeZone {
        guard
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtimePath),
            let range = target.range(of: "zoneinfo/"),
            let zone = TimeZone(identifier: String(target[range.upperBound...]))
        else { return utc }
        return zone
    }

    /// Seconds east of Greenwich for `STDoffset` with no summer-time part: `STD` is three or
    /// more letters or `<…>`, `offset` is `[+-]hh[:mm[:ss]]` counted west of Greenwich.
    package static func posixFixedOffset(_ value: String) -> Int? {
        var rest = Substring(value)
        if rest.hasPrefix("<") {
            guard let close = rest.firstIndex(of: ">") else { return nil }
            rest = rest[rest.index(after: close)...]
        } else {
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            guard letters.count >= 3 else { return nil }
            rest = rest.dropFirst(letters.count)
        }
        var sign = 1
        if let first = rest.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count),
            fields.allSatisfy({
                (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber }
            })
        else { return nil }
        let numbers = fields.compactMap { Int($0) }
        let hours = numbers[0], minutes = numbers.count > 1 ? numbers[1] : 0
        let seconds = numbers.count > 2 ? numbers[2] : 0
        guard hours <= 24, minutes < 60, seconds < 60 else { return nil }
        return -sign * (hours * 3600 + minutes * 60 + seconds)
    }

    /// A tz database name: 1 to 64 ASCII letters, digits, `/`, `_`, `-`, `+`, not starting
    /// with `/` and without `..`.
    private static func isTimeZoneName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && !name.hasPrefix("/") && !name.contains("..")
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || "/_-+".utf8.contains(byte)
            }
    }

    private static func isLanguage(_ part: Substring) -> Bool {
        (2...3).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isLetter }
    }

    private static func isTerritory(_ part: Substring) -> Bool {
        (part.count == 2 && part.allSatisfy { $0.isASCII && $0.isLetter })
            || (part.count == 3 && part.allSatisfy { $0.isASCII && $0.isNumber })
    }
}
