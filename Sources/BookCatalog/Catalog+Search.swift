import Foundation
import Persistence

extension Catalog {
    /// Books whose canonical title or author name contains every word of `text`, in any
    /// order, case- and diacritic-insensitively ("dvorak slovanske" finds "Dvořák:
    /// Slovanské tance"; "marquez cien" finds "Cien años de soledad").
    ///
    /// The query is text, never syntax: quotes, `%`, `_`, `*` and the like match
    /// literally. Ranked: the whole query as whole words first ("ring" finds "The Ring"),
    /// then the whole query at the start of a word ("Ringworld"), then every word at the
    /// start of a word, then plain substring matches ("Boring"); ties by title, then newest
    /// first. The store answers from its
    /// search index (`FetchRequest.searchText`), so a search over a million books reads only
    /// the books that match.
    public func search(_ text: String, limit: Int? = nil) throws -> [Book] {
        var books: [Book] = []
        try forEachSearchResult(text, limit: limit) { books.append($0) }
        return books
    }

    /// The books `search(_:limit:)` finds, handed to `body` one at a time in rank order as
    /// they are read, so that printing every match of a common word keeps memory flat.
    public func forEachSearchResult(_ text: String, limit: Int? = nil, _ body: (Book) throws -> Void) throws {
        var request = FetchRequest(
            entityName: "Book",
            sortDescriptors: Self.searchOrder,
            fetchLimit: limit)
        request.searchText = text
        request.searchKeyPaths = Self.searchKeyPaths
        try context.forEach(request) { object in
            if let book = object as? Book { try body(book) }
            return true
        }
    }

    /// What a search looks in: the canonical title and the author's canonical name.
    static let searchKeyPaths = ["canonicalTitle", "author.canonicalName"]

    /// How ties between equally ranked matches are ordered.
    static let searchOrder = [SortKey("title"), SortKey("publishDate", ascending: false)]
}
