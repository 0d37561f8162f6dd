import Foundation
import Persistence

extension Catalog {
    /// Books whose canonical title or author name contains every word of `text`, in any
    /// order, case- and diacritic-insensitively ("dvorak slovanske" finds "Dvořák:
    /// Slovanské tance"; "marquez cien" finds "Cien años de soledad").
    ///
    /// The query is text, never syntax: quotes, `%`, `_`, `*` and the like match
    /// literally. Ranked: the whole query as a phrase first, then every word at the start
    /// of a word, then plain substring matches; ties by title.
    public func search(_ text: String, limit: Int? = nil) throws -> [Book] {
        let phrase = CanonicalText.fold(text)
        let words = phrase.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return [] }
        let condition = words.map { _ in "(canonicalTitle CONTAINS %@ OR author.canonicalName CONTAINS %@)" }
            .joined(separator: " AND ")
        var arguments: [Any?] = []
        for word in words { arguments += [word, word] }
        let predicate = try FetchPredicate(format: condition, argumentArray: arguments)
        var ranked: [(rank: Int, title: String, book: Book)] = []
        try forEachBook(matching: predicate) { book in
            let haystacks = [book.canonicalTitle ?? "", book.author?.canonicalName ?? ""]
            let rank: Int
            if haystacks.contains(where: { $0.contains(phrase) }) {
                rank = 0
            } else if words.allSatisfy({ word in haystacks.contains { Self.hasWordPrefix(word, in: $0) } }) {
                rank = 1
            } else {
                rank = 2
            }
            ranked.append((rank, book.title, book))
        }
        ranked.sort { ($0.rank, $0.title) < ($1.rank, $1.title) }
        let books = ranked.map(\.book)
        return limit.map { Array(books.prefix($0)) } ?? books
    }

    /// Whether `word` occurs in `text` at the start of a word.
    static func hasWordPrefix(_ word: String, in text: String) -> Bool {
        var search = text.startIndex..<text.endIndex
        while let range = text.range(of: word, range: search) {
            if range.lowerBound == text.startIndex { return true }
            let before = text[text.index(before: range.lowerBound)]
            if !before.isLetter && !before.isNumber { return true }
            search = range.upperBound..<text.endIndex
        }
        return false
    }
}
