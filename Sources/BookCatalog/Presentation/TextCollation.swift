import Foundation

/// How text sorts for the user's language: `LANG=sv_SE.UTF-8 books list --sort author` puts
/// Å, Ä and Ö after Z, as Swedish readers look for them, and a French listing by title files
/// "Le Petit Prince" under P.
///
/// Foundation on Linux compares with a locale's collation (`compare(_:options:range:locale:)`)
/// but gives no sort key, and a comparison through it costs microseconds: sorting 200,000
/// titles took 25 s. So the catalogue collates itself, from a sort key per text computed once
/// (``sortKey(_:)``): bytes that compare, as bytes, in the language's order.
///
/// The key has two levels, as the Unicode Collation Algorithm's first two: letters (primary),
/// then accents (secondary, compared only between texts whose letters are the same, from the
/// first character on). Case is not in the key: a listing breaks ties by the text as typed.
/// Spaces come first, then punctuation and symbols (by code point), then digits (of any
/// script, by value), then the Latin letters a to z, then the letters of other scripts (by
/// code point). An accented letter is its base letter with a secondary difference ("é" is
/// "e" with an acute), "ß" is "ss", "æ" "ae", "œ" "oe", and "ø", "ł", "đ", "ð", "ħ", "ı" are
/// "o", "l", "d", "d", "h", "i" with a secondary difference. This is the root order, for
/// every language without a tailoring (English, German, French and the rest).
///
/// The tailorings follow each language's published alphabet (as CLDR's collations do):
/// - `sv` (Swedish): å, ä, ö are letters after z, in that order; æ sorts as ä and ø as ö
///   (with a secondary difference); ü sorts as y (likewise); w is a letter of its own.
/// - `de` (German): none, dictionary order (DIN 5007-1): ä, ö, ü as a, o, u, ß as ss.
/// - `fr` (French): none: accents differ only when the letters are the same, compared from
///   the first accent (as in France; Canadian French's backward accents are not applied).
/// - `es` (Spanish): ñ is a letter after n (ch and ll are not letters since 1994).
/// - `pl` (Polish): ą after a, ć after c, ę after e, ł after l, ń after n, ó after o, ś
///   after s, ź and then ż after z.
/// - `tr` (Turkish, also `az`): ç after c, ğ after g, ı (dotless) before i, ö after o, ş
///   after s, ü after u; "I" is the capital of ı and "İ" that of i.
///
/// Leading articles are ignored, where a language's readers expect it, by
/// ``sortKey(title:)``: see ``articles``.
public struct TextCollation: Sendable, Equatable {
    /// The language whose rules apply: a lowercase ISO 639 code (`sv`), or `root`.
    public let language: String

    /// The collation for a Foundation locale identifier such as `sv_SE` or `fr`.
    ///
    /// Returns nil for the C and POSIX locales (``UserEnvironment/posixLocaleIdentifier``):
    /// there listings keep the store's order, text by its case- and accent-folded form's
    /// bytes, as they always have.
    public init?(localeIdentifier identifier: String) {
        guard identifier != UserEnvironment.posixLocaleIdentifier else { return nil }
        let code = identifier.split(separator: "_").first.map { $0.lowercased() } ?? ""
        language = code.isEmpty ? "root" : code
    }

    /// The words each language's readers skip at the start of a title when they look it up,
    /// lowercase; an article ends at a space, or at its apostrophe (`l'`, `l’`). Languages
    /// not listed skip none (Polish and Turkish have no articles).
    ///
    /// - `en`: the, a, an
    /// - `de`: der, die, das, ein, eine
    /// - `fr`: le, la, les, l', un, une
    /// - `es`: el, la, los, las, un, una
    /// - `sv`: en, ett, den, det
    public static let articles: [String: [String]] = [
        "en": ["the", "a", "an"],
        "de": ["der", "die", "das", "ein", "eine"],
        "fr": ["le", "la", "les", "l'", "un", "une"],
        "es": ["el", "la", "los", "las", "un", "una"],
        "sv": ["en", "ett", "den", "det"],
    ]

    /// The sort key of `text`: bytes that compare, as bytes (`lexicographicallyPrecedes`), as
    /// the language orders the texts; equal for texts that differ only in case.
    public func sortKey(_ text: String) -> [UInt8] {
        var primary: [UInt8] = []
        var secondary: [UInt8] = []
        primary.reserveCapacity(text.utf8.count * 3)
        secondary.reserveCapacity(text.utf8.count)
        let turkic = language == "tr" || language == "az"
        for character in text {
            // ASCII, most of most titles, without the allocations of the general case.
            if let ascii = character.asciiValue, ascii < 0x80, !(turkic && ascii == UInt8(ascii: "I")) {
                let weight = Self.asciiWeights[Int(ascii)]
                primary.append(UInt8(truncatingIfNeeded: weight >> 16) &+ 1)
                primary.append(UInt8(truncatingIfNeeded: weight >> 8))
                primary.append(UInt8(truncatingIfNeeded: weight))
                secondary.append(Self.commonSecondary)
                continue
            }
            for element in elements(of: character) {
                if let weight = element.primary {
                    primary.append(UInt8(truncatingIfNeeded: weight >> 16) &+ 1)
                    primary.append(UInt8(truncatingIfNeeded: weight >> 8))
                    primary.append(UInt8(truncatingIfNeeded: weight))
                }
                secondary.append(element.secondary)
            }
        }
        // Trailing common secondaries say nothing: texts with the same letters have as many.
        while secondary.last == Self.commonSecondary { secondary.removeLast() }
        // The separator sorts below every first byte of a weight: a text that is a prefix of
        // another comes first.
        return primary + [0] + secondary
    }

    /// The sort key of a title (or a series' name), its leading article skipped (see
    /// ``articles``): "The Hobbit" sorts as "Hobbit". A title that is nothing but an article
    /// keeps it.
    public func sortKey(title: String) -> [UInt8] {
        sortKey(String(Self.droppingArticle(title, articles: Self.articles[language] ?? [])))
    }

    // MARK: - Internals

    /// The text without the first of `articles` it begins with (followed by a space, or an
    /// article ending in an apostrophe followed by anything), case ignored.
    static func droppingArticle(_ text: String, articles: [String]) -> Substring {
        let trimmed = text.drop { $0.isWhitespace }
        // Most titles begin with none of the articles' first letters: no more work for them.
        guard let first = trimmed.first?.lowercased().first,
            articles.contains(where: { $0.first == first })
        else { return trimmed }
        for article in articles {
            let elided = article.hasSuffix("'")
            let stem = elided ? String(article.dropLast()) : article
            guard trimmed.count > stem.count,
                trimmed.prefix(stem.count).lowercased() == stem
            else { continue }
            let after = trimmed.dropFirst(stem.count)
            guard let next = after.first else { continue }
            if elided {
                guard next == "'" || next == "\u{2019}" else { continue }
                let rest = after.dropFirst().drop { $0.isWhitespace }
                if !rest.isEmpty { return rest }
            } else if next.isWhitespace {
                let rest = after.drop { $0.isWhitespace }
                if !rest.isEmpty { return rest }
            }
        }
        return trimmed
    }

    /// One collation element: a primary weight (nil for a mark, which has only an accent's
    /// weight) and a secondary weight.
    struct Element: Equatable {
        var primary: UInt32?
        var secondary: UInt8
    }

    /// The secondary weight of a letter without an accent.
    static let commonSecondary: UInt8 = 1
    /// The secondary weight of a letter that sorts as another with a difference (ø as o).
    static let variantSecondary: UInt8 = 0x60

    /// Primary weights: spaces, punctuation and symbols, digits, Latin letters, other letters.
    static let spaceWeight: UInt32 = 0x00_0100
    static let symbolBase: UInt32 = 0x00_1000
    static let digitBase: UInt32 = 0x12_0000
    static let latinBase: UInt32 = 0x13_0000
    static let otherLetterBase: UInt32 = 0x14_0000

    /// The primary weight of the Latin letter `letter` (a to z), plus `offset` (a tailored
    /// letter just after it, or just before with a negative offset).
    static func latin(_ letter: Character, _ offset: Int32 = 0) -> UInt32 {
        let index = UInt32((letter.asciiValue ?? UInt8(ascii: "a")) - UInt8(ascii: "a"))
        return UInt32(Int32(latinBase + index * 16 + 8) + offset)
    }

    /// The primary weight of each ASCII character (Turkish "I" excepted: see ``elements(of:)``).
    private static let asciiWeights: [UInt32] = (0..<128).map { code in
        elements(of: Unicode.Scalar(UInt8(code) | (code >= 0x41 && code <= 0x5A ? 0x20 : 0))).first?.primary ?? spaceWeight
    }

    /// The language's letters that sort other than as their root form, lowercase.
    private var tailoring: [Character: [Element]] {
        Self.tailorings[language == "az" ? "tr" : language] ?? [:]
    }

    private static let tailorings: [String: [Character: [Element]]] = {
        func letter(_ base: Character, _ offset: Int32, _ secondary: UInt8 = commonSecondary) -> [Element] {
            [Element(primary: latin(base, offset), secondary: secondary)]
        }
        return [
            "sv": [
                "å": letter("z", 1), "ä": letter("z", 2), "ö": letter("z", 3),
                "æ": letter("z", 2, variantSecondary), "ø": letter("z", 3, variantSecondary),
                "ü": letter("y", 0, variantSecondary),
            ],
            "es": ["ñ": letter("n", 1)],
            "pl": [
                "ą": letter("a", 1), "ć": letter("c", 1), "ę": letter("e", 1), "ł": letter("l", 1),
                "ń": letter("n", 1), "ó": letter("o", 1), "ś": letter("s", 1), "ź": letter("z", 1),
                "ż": letter("z", 2),
            ],
            "tr": [
                "ç": letter("c", 1), "ğ": letter("g", 1), "ı": letter("i", -1), "ö": letter("o", 1),
                "ş": letter("s", 1), "ü": letter("u", 1),
            ],
        ]
    }()

    /// Latin letters without a decomposition that sort as other letters in the root order.
    private static let rootLetters: [Unicode.Scalar: [Element]] = {
        func plain(_ letters: String) -> [Element] {
            letters.map { Element(primary: latin($0), secondary: commonSecondary) }
        }
        func variant(_ base: Character) -> [Element] {
            [Element(primary: latin(base), secondary: variantSecondary)]
        }
        return [
            "ß": plain("ss"), "æ": plain("ae"), "œ": plain("oe"), "ĳ": plain("ij"),
            "ø": variant("o"), "ł": variant("l"), "đ": variant("d"), "ð": variant("d"),
            "ħ": variant("h"), "ı": variant("i"),
        ]
    }()

    /// The secondary weights of the common combining marks, in the order of the Unicode
    /// Collation Algorithm's table (acute before grave before breve …); others follow.
    private static let markWeights: [UInt32: UInt8] = {
        let order: [UInt32] = [
            0x301, 0x300, 0x306, 0x302, 0x30C, 0x30A, 0x308, 0x30B, 0x303, 0x307, 0x328, 0x327, 0x304,
        ]
        return Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, UInt8(2 + $0)) })
    }()

    /// The elements of one character: its tailored letter, else its decomposition's.
    func elements(of character: Character) -> [Element] {
        let lower = lowercased(character)
        if lower.count == 1, let first = lower.first, let tailored = tailoring[first] { return tailored }
        var result: [Element] = []
        for scalar in lower.decomposedStringWithCanonicalMapping.unicodeScalars {
            result += Self.elements(of: scalar)
        }
        return result
    }

    /// A character in lowercase; in Turkish and Azeri "I" is "ı" and "İ" is "i".
    private func lowercased(_ character: Character) -> String {
        guard language == "tr" || language == "az" else { return character.lowercased() }
        let scalars = Array(String(character).decomposedStringWithCanonicalMapping.unicodeScalars)
        var text = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "I" {
                // "İ" decomposes to "I" and a dot above: the dot makes it i.
                if index < scalars.count, scalars[index] == "\u{307}" {
                    text.append("i")
                    index += 1
                } else {
                    text.append("ı")
                }
            } else {
                text.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            }
        }
        return String(text).precomposedStringWithCanonicalMapping
    }

    /// The root elements of one scalar of a decomposed, lowercase text.
    private static func elements(of scalar: Unicode.Scalar) -> [Element] {
        if let known = rootLetters[scalar] { return known }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark:
            let weight = markWeights[scalar.value] ?? UInt8(0x20 + scalar.value % 0x40)
            return [Element(primary: nil, secondary: weight)]
        case .decimalNumber:
            let digit = UInt32(properties.numericValue ?? 0)
            return [Element(primary: digitBase + digit, secondary: commonSecondary)]
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control:
            return [Element(primary: spaceWeight, secondary: commonSecondary)]
        default:
            break
        }
        if scalar.value >= 0x61 && scalar.value <= 0x7A {
            return [Element(primary: latin(Character(scalar)), secondary: commonSecondary)]
        }
        if properties.isAlphabetic {
            return [Element(primary: otherLetterBase + scalar.value, secondary: commonSecondary)]
        }
        return [Element(primary: symbolBase + scalar.value, secondary: commonSecondary)]
    }
}
