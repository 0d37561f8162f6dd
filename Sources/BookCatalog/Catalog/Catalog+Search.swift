import Foundation
import Persistence

extension Catalog {
    /// The books a search query finds (see ``SearchQuery`` for its syntax). Plain words
    /// match as they always did: books whose canonical title or author name contains every
    /// word, in any order, case- and diacritic-insensitively ("dvorak slovanske" finds
    /// "Dvořák: Slovanské tance"; "marquez cien" finds "Cien años de soledad").
    ///
    /// Punctuation in words is literal: `%`, `_`, `*`, `'` and the like match the characters
    /// they are. Ranked: the whole query as whole words first ("ring" finds "The Ring"),
    /// then the whole query at the start of a word ("Ringworld"), then every word at the
    /// start of a word, then plain substring matches ("Boring"); ties by title, then newest
    /// first. The store answers from its search index (`FetchRequest.searchText`), so a
    /// search over a million books reads only the books that match. Field terms, phrases,
    /// exclusions and `OR` narrow the matches with a predicate.
    ///
    /// - Throws: ``SearchQueryError`` for a malformed query, before the store is read.
    public func search(_ text: String, limit: Int? = nil) throws -> [Book] {
        var books: [Book] = []
        try forEachSearchResult(text, limit: limit) { books.append($0) }
        return books
    }

    /// The books `search(_:limit:)` finds, handed to `body` one at a time in rank order as
    /// they are read, so that printing every match of a common word keeps memory flat.
    ///
    /// - Throws: ``SearchQueryError`` for a malformed query, before the store is read.
    public func forEachSearchResult(_ text: String, limit: Int? = nil, _ body: (Book) throws -> Void) throws {
        try forEachSearchResult(text, matching: nil, order: nil, limit: limit, body)
    }

    /// The books `search(_:limit:)` finds that also match `predicate` (`books search
    /// --where`), in rank order, or in a listing's `order` (`--sort`): then every term,
    /// plain words too, is a condition of the fetch, as `list` sorts (unknown values last).
    ///
    /// - Throws: ``SearchQueryError`` for a malformed query, before the store is read.
    public func forEachSearchResult(
        _ text: String, matching predicate: FetchPredicate?, order: ListingOrder?, limit: Int?,
        _ body: (Book) throws -> Void
    ) throws {
        let query = try SearchQuery(text)
        guard let order else {
            var request = query.fetchRequest(limit: limit)
            if let predicate { request.predicate = request.predicate.map { $0 && predicate } ?? predicate }
            try context.forEach(request) { object in
                if let book = object as? Book { try body(book) }
                return true
            }
            return
        }
        let conditions = [query.predicateOfEveryTerm, predicate].compactMap { $0 }
        let all = conditions.dropFirst().reduce(conditions.first) { all, part in all.map { $0 && part } }
        try forEachBook(matching: all, order: order, limit: limit, body)
    }

    /// What a search looks in: the canonical title and the authors' names (the canonical
    /// byline, "A, B & C" folded).
    static let searchKeyPaths = ["canonicalTitle", "canonicalByline"]

    /// How ties between equally ranked matches are ordered.
    static let searchOrder = [SortKey("title"), SortKey("publishDate", ascending: false)]
}
