extension FetchCompiler {
    /// A compound `SELECT "id" …` whose rows include every row that ranks better than `tier`
    /// for `text` (see ``SearchText`` for the ranks 0–3), answered from the search indexes
    /// alone; nil when the indexes cannot bound that set (a word or phrase too short for a
    /// trigram, or holding U+0001). Tier 0 has nothing better: its set is empty (`""`).
    ///
    /// The set may hold more rows (rows that do not match, or rank worse): callers rank what
    /// it finds. It rests on the index's form of each value (`SearchIndexMapping`): the text
    /// between spaces, then a marker when the text holds a character other than a space,
    /// `0`–`9` or `a`–`z`. Text `x` starts a word where it follows a space or the start of
    /// the text, both found by the phrase `" x"`, or follows another character that is not a
    /// letter or digit: then the text has the marker. So:
    /// - rank ≤ 2 (every word starts a word): for each word `w`, `" w"` or (marker and `"w"`),
    ///   in some attribute; words too short for a trigram are left out, which only widens the
    ///   set;
    /// - rank ≤ 1 (the phrase starts a word): `" phrase"` or (marker and `"phrase"`);
    /// - rank 0 (the phrase as whole words): `" phrase "` or (marker and `"phrase"`).
    ///
    /// - Throws: `FetchError` as ``search(_:keyPaths:)``.
    package func searchTierRows(_ text: String, keyPaths: [String], below tier: Int) throws
        -> (sql: String, arguments: [SQLiteValue])?
    {
        let search = SearchText(text)
        let paths = try searchPaths(keyPaths)
        guard tier > 0 else { return ("", []) }
        guard !search.words.isEmpty, usesSearchIndexes else { return nil }
        let marker = SearchText.ftsQuery(SearchIndexMapping.exoticMarker)
        func startOrMarked(_ prefix: String, _ piece: String, _ suffix: String) -> String {
            "\(SearchText.ftsQuery(prefix + piece + suffix)) OR (\(marker) AND \(SearchText.ftsQuery(piece)))"
        }
        let queries: [String]
        switch tier {
        case 1, 2:
            guard SearchText.isIndexable(search.phrase) else { return nil }
            queries = [startOrMarked(" ", search.phrase, tier == 1 ? " " : "")]
        default:
            var words: [String] = []
            for word in search.words where SearchText.isIndexable(word) && !words.contains(word) { words.append(word) }
            // SQLite allows 500 terms in a compound SELECT.
            guard !words.isEmpty, words.count * paths.count <= 480 else { return nil }
            queries = words.map { startOrMarked(" ", $0, "") }
        }
        return indexRows(queries, paths)
    }

    /// The FTS5 query that finds the rows holding every indexable word of `text` in one
    /// attribute, for estimating how many rows match; nil when no word is indexable.
    package static func searchEstimateQuery(_ text: String) -> String? {
        var words: [String] = []
        for word in SearchText(text).words where SearchText.isIndexable(word) && !words.contains(word) {
            words.append(word)
        }
        guard !words.isEmpty else { return nil }
        return words.prefix(16).map(SearchText.ftsQuery).joined(separator: " AND ")
    }
}
