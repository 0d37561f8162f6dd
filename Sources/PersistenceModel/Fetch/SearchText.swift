import Foundation

/// Search-box text, folded and split into words: what ``FetchRequest/searchText`` matches
/// and ranks with.
///
/// The text is folded to its canonical form (``CanonicalText``) and split at spaces into
/// words. An object matches when every word occurs in the canonical form of one of the
/// searched attributes, in any order. The text is never syntax: quotes, `%`, `_`, `*`, `-`,
/// `NEAR`, `OR`, `AND` and `NOT` are matched as the characters they are.
///
/// Rank, best first, where a "word" of an attribute is a run of letters and digits:
/// 0. the whole folded text, as typed, is whole words of one attribute ("ring" in "The
///    Ring", "lord of" in "The Lord of the Rings");
/// 1. the whole text starts a word of one attribute ("ring" in "Ringworld");
/// 2. every word starts a word of some attribute, in any order ("rings lord");
/// 3. the other matches, where some word only occurs inside a word ("ring" in "Boring").
package struct SearchText: Sendable, Equatable {
    /// The folded text, words separated by single spaces.
    package let phrase: String
    /// The words, in order, each at least one character.
    package let words: [String]

    /// Words of this many characters (Unicode scalars) or more are looked up in the trigram
    /// index; shorter words have no trigram and are found by scanning the stored column.
    package static let indexedWordLength = 3

    /// Folds and splits `text`.
    package init(_ text: String) {
        phrase = CanonicalText.fold(text)
        words = phrase.split(separator: " ").map(String.init)
    }

    /// Whether `word` is looked up in the trigram index: long enough for a trigram, and free
    /// of U+0001, which the index uses for its marker (`SearchIndexMapping.exoticMarker`).
    package static func isIndexable(_ word: String) -> Bool {
        word.unicodeScalars.count >= indexedWordLength && !word.unicodeScalars.contains("\u{1}")
    }

    /// `word` as an FTS5 query that matches it literally: a string in double quotes, inner
    /// quotes doubled, so that no character or keyword in it is query syntax.
    package static func ftsQuery(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: - Matching and ranking

    /// Whether every word occurs in one of `fields` (canonical texts).
    package func matches(_ fields: [String]) -> Bool {
        let haystacks = fields.map { Array($0.utf8) }
        return words.allSatisfy { word in
            let needle = Array(word.utf8)
            return haystacks.contains { Self.firstOffset(of: needle, in: $0, from: 0) != nil }
        }
    }

    /// The rank of an object whose searched attributes hold `fields` (canonical texts),
    /// 0 (best) to 3, as described in ``SearchText``.
    package func rank(_ fields: [String]) -> Int {
        Self.rank(phrase: Array(phrase.utf8), words: words.map { Array($0.utf8) }, fields: fields.map { Array($0.utf8) })
    }

    /// The rank of a row whose searched fields hold the given canonical texts (nil counts as
    /// empty) for a folded search `phrase`: what a store's ranking (the SQLite store's
    /// `search_rank` function) computes, so that every store ranks alike.
    package static func rank(phrase: String?, fields: [String?]) -> Int {
        guard let phrase else { return 3 }
        let bytes = Array(phrase.utf8)
        let words = bytes.split(separator: 0x20).map(Array.init)
        return rank(phrase: bytes, words: words, fields: fields.map { Array(($0 ?? "").utf8) })
    }

    /// Ranks rows for one folded search phrase, its bytes and words split once: what a
    /// store's SQL rank function keeps from one row of a statement to the next, so that
    /// ranking every match of a common word in SQL costs only the fields' folding and the
    /// comparisons, exactly as ``rank(_:)`` ranks them.
    package struct Ranker: Sendable {
        /// The folded phrase's UTF-8 bytes.
        let phrase: [UInt8]
        /// Its words, split at spaces.
        let words: [[UInt8]]

        /// A ranker for `phrase`, the UTF-8 of a phrase folded already (``SearchText/phrase``).
        package init(foldedPhrase phrase: UnsafeRawBufferPointer) {
            self.phrase = Array(phrase)
            words = self.phrase.split(separator: 0x20).map(Array.init)
        }

        /// Whether this ranker ranks for the folded phrase whose UTF-8 is `bytes`.
        package func ranks(for bytes: UnsafeRawBufferPointer) -> Bool {
            phrase.elementsEqual(bytes)
        }

        /// The rank, 0 (best) to 3, of a row whose searched fields hold `fields` (the UTF-8
        /// of their canonical texts; empty for none), as ``SearchText/rank(_:)`` ranks.
        package func rank(_ fields: [[UInt8]]) -> Int {
            SearchText.rank(phrase: phrase, words: words, fields: fields)
        }
    }

    private static func rank(phrase: [UInt8], words: [[UInt8]], fields: [[UInt8]]) -> Int {
        var phrasePlacement = Placement.inside
        for field in fields {
            phrasePlacement = max(phrasePlacement, placement(of: phrase, in: field))
            if phrasePlacement == .wholeWords { return 0 }
        }
        if phrasePlacement == .wordStart { return 1 }
        let prefixes = words.allSatisfy { word in fields.contains { placement(of: word, in: $0) >= .wordStart } }
        return prefixes ? 2 : 3
    }

    /// Where text occurs in a field, from worst to best.
    enum Placement: Int, Comparable {
        /// Nowhere, or only inside words.
        case inside
        /// At the start of a word.
        case wordStart
        /// As whole words: at the start of a word and at the end of one.
        case wholeWords

        static func < (a: Placement, b: Placement) -> Bool { a.rawValue < b.rawValue }
    }

    /// The best placement of `needle` in `text`: a word starts at the start of the text or
    /// after a character that is neither a letter nor a digit, and ends before one.
    static func placement(of needle: [UInt8], in text: [UInt8]) -> Placement {
        var best = Placement.inside
        var start = 0
        while let offset = firstOffset(of: needle, in: text, from: start) {
            if offset == 0 || !isWordCharacter(endingAt: offset, in: text) {
                let end = offset + needle.count
                if end == text.count || !isWordCharacter(startingAt: end, in: text) { return .wholeWords }
                best = .wordStart
            }
            start = offset + 1
        }
        return best
    }

    /// The offset of the first occurrence of `needle` in `haystack` at or after `start`.
    /// Byte offsets in UTF-8 are exact: a valid needle never matches mid-character.
    private static func firstOffset(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty else { return start <= haystack.count ? start : nil }
        guard haystack.count - start >= needle.count else { return nil }
        let first = needle[0]
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = 1
                while matched < needle.count && haystack[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// Whether the character that ends just before `offset` is a letter or a digit.
    private static func isWordCharacter(endingAt offset: Int, in text: [UInt8]) -> Bool {
        var start = offset - 1
        while start > 0 && text[start] & 0xC0 == 0x80 { start -= 1 }
        return isWordCharacter(startingAt: start, in: text)
    }

    /// Whether the character that starts at `offset` is a letter or a digit.
    private static func isWordCharacter(startingAt offset: Int, in text: [UInt8]) -> Bool {
        let lead = text[offset]
        if lead < 0x80 {
            return (lead >= 0x30 && lead <= 0x39) || (lead | 0x20 >= 0x61 && lead | 0x20 <= 0x7A)
        }
        var decoder = UTF8()
        var iterator = text[offset...].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}
