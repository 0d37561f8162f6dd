import PersistenceModel
import PersistenceSQLite
extension FetchCompiler {
    /// Sets of rows that each include every row that ranks better than `tier` for `text`
    /// (see ``SearchText`` for the ranks 0–3), answered from the search indexes alone; nil
    /// when the indexes cannot bound that set (a word or phrase too short for a trigram, or
    /// holding U+0001). Each element is one such set, as lookups (one per searched
    /// attribute) whose rows together make it; any one set will do, so a caller takes the
    /// smallest. Tier 0 has nothing better: one empty set.
    ///
    /// A set may hold more rows (rows that do not match, or rank worse): callers rank what
    /// it finds. The lookups stream from the index, so a caller can stop reading one once
    /// it has seen too many rows. It rests on the index's form of each value (`SearchIndexMapping`): the text
    /// between spaces, then a marker when the text holds a character other than a space,
    /// `0`–`9` or `a`–`z`. Text `x` starts a word where it follows a space or the start of
    /// the text, both found by the phrase `" x"`, or follows another character that is not a
    /// letter or digit: then the text has the marker. So:
    /// - rank ≤ 2 (every word starts a word): for any one word `w`, `" w"` or (marker and
    ///   `"w"`), in some attribute (a set per word of a trigram or more);
    /// - rank ≤ 1 (the phrase starts a word): `" phrase"` or (marker and `"phrase"`);
    /// - rank 0 (the phrase as whole words): `" phrase "` or (marker and `"phrase"`).
    ///
    /// - Throws: `FetchError` as ``search(_:keyPaths:)``.
    package func searchTierRows(_ text: String, keyPaths: [String], below tier: Int) throws -> [[SearchLookup]]? {
        let search = SearchText(text)
        let paths = try searchPaths(keyPaths)
        guard tier > 0 else { return [[]] }
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
            guard !words.isEmpty else { return nil }
            queries = words.map { startOrMarked(" ", $0, "") }
        }
        return queries.map { query in
            paths.map { SearchLookup(sql: indexLookup($0), arguments: [.text(query)]) }
        }
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

/// One query of a search index: `sql` selects primary keys of the fetched table as `"id"`.
package struct SearchLookup: Sendable {
    /// The query.
    package let sql: String
    /// The values bound to its `?` parameters.
    package let arguments: [SQLiteValue]
}
