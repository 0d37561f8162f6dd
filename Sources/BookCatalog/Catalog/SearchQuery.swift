import Foundation
import Persistence

/// What a person types into `books search`: words as today, plus a little syntax.
///
/// ```
/// solaris                      every word in the title or the author's name (ranked)
/// "cien años"                  the words next to each other, in this order
/// author:lem  title:"cien años"  tag:scifi  isbn:978-0-306  year:1961
/// series:discworld  publisher:penguin  status:read  rating:>=4  language:pt  added:2024-03
/// -word  -author:lem           books without it
/// lem OR calvino               either side; binds tighter than the space between terms
/// ```
///
/// Terms separated by white space must all match; `OR` (upper case, on its own) joins the
/// terms on either side into one term that matches when one of them does, so
/// `solaris author:lem OR author:calvino` is "solaris, by Lem or by Calvino", as in web search
/// boxes. Every text is folded as the search index folds it (case, accents, `ł`, `ß`…).
///
/// Syntax is only where it cannot be a word a person searches for, so that punctuation
/// stays literal text: a field prefix is one of the eleven names above, `-` excludes only
/// when a word follows it (`-` and `--x` are
/// words), and a quote is syntax only at the start of a term or of a field's value
/// (`rock'n'roll` and `a"b` are words). A malformed query (a quote left open, a field
/// with no value, `year:abc`, `OR` with nothing on one side) throws ``SearchQueryError``
/// naming the position; so does a term that looks like a field but names none (`stauts:read`,
/// letters and `:` then a value), naming the fields, so that a misspelled field never
/// silently matches nothing (quote it to search for the text: `"re:zero"`).
///
/// Plain words that every match must contain keep the ranking of ``FetchRequest/searchText``
/// (whole words, then prefixes, then the rest); the other terms are a ``FetchPredicate``, so
/// nothing a person types ever reaches the store as query text.
public struct SearchQuery: Sendable, Equatable {
    /// One condition of a query, with whether it is excluded.
    public struct Term: Sendable, Equatable {
        /// What the term asks for.
        public var condition: Condition
        /// Whether the term was written with `-`: a book matches when the condition does not.
        public var isExcluded: Bool
    }

    /// What one term asks for, each text as typed (folding happens when it is compared).
    public enum Condition: Sendable, Equatable {
        /// A plain word: it occurs in the title or the author's name.
        case word(String)
        /// `"…"`: the words, next to each other in this order, in the title or the author's name.
        case phrase(String)
        /// `author:…`: the text occurs in an author's name.
        case author(String)
        /// `series:…`: the text occurs in the series' name.
        case series(String)
        /// `publisher:…`: the text occurs in the publisher's name.
        case publisher(String)
        /// `status:…`: the book has this reading status.
        case status(ReadingStatus)
        /// `rating:4`, `rating:>=4`: the book's rating compared with a number (unrated books
        /// never match).
        case rating(RatingComparison, Int16)
        /// `language:pt`: the book's language is this tag or a regional form of it (`pt-BR`).
        case language(String)
        /// `added:2024`, `added:2024-03`, `added:2024-03-01`: the book joined the catalogue in
        /// this period (UTC).
        case added(from: Date, before: Date?)
        /// `title:…`: the text occurs in the title.
        case title(String)
        /// `tag:…`: the book has a tag of this name.
        case tag(String)
        /// `isbn:…`: the book's ISBN-13 starts with these digits.
        case isbnPrefix(String)
        /// `year:…`: the book was published in this year.
        case year(Int)
    }

    /// The field names a term may start with, followed by `:`.
    public enum Field: String, Sendable, CaseIterable {
        case author, title, tag, isbn, year, series, publisher, status, rating, language, added
    }

    /// How `rating:` compares: `=` unless the value starts with `>=`, `<=`, `>` or `<`.
    public enum RatingComparison: String, Sendable, Equatable {
        case equal = "", atLeast = ">=", atMost = "<=", above = ">", below = "<"
    }

    /// The query's groups, all of which must match; a group matches when one of its terms
    /// (more than one when joined by `OR`) does.
    public var groups: [[Term]]

    /// The text as typed.
    public var text: String

    /// The most terms a query may have besides plain words that stand alone (those are the
    /// search text, whose own limit counts its different words): a search box never needs
    /// more, and each such term is a condition of the fetch.
    public static let maximumTerms = 256

    /// Parses `text`.
    ///
    /// - Throws: ``SearchQueryError`` naming the position (0-based, in characters) and the
    ///   problem when the text is malformed.
    public init(_ text: String) throws(SearchQueryError) {
        self.text = text
        var parser = SearchQueryParser(text)
        groups = try parser.parseGroups()
    }

    /// Whether the query is plain words only, with no syntax at all: such a query is searched
    /// exactly as its text always was.
    public var isPlainWords: Bool {
        groups.allSatisfy { group in
            group.count == 1 && !group[0].isExcluded && { if case .word = group[0].condition { true } else { false } }()
        }
    }
}

extension SearchQuery.Condition {
    /// The text this condition asks the title or the author's name to contain, if any: what a
    /// search ranks with when the condition must hold (it adds no match, only order).
    var rankingText: String? {
        switch self {
        case .word(let text), .phrase(let text), .author(let text), .title(let text): text
        case .tag, .isbnPrefix, .year, .series, .publisher, .status, .rating, .language, .added: nil
        }
    }
}

// MARK: - Errors

/// A search query that cannot be read: what is wrong and where.
///
/// ```
/// Unable to parse search "title:\"cien años" at position 6: the quote is not closed
/// ```
public struct SearchQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The query as typed.
    public var query: String
    /// The 0-based character offset of the problem in ``query``, as `--where` errors count.
    public var position: Int
    /// What is wrong, a lowercase phrase.
    public var reason: String

    /// Creates an error.
    public init(query: String, position: Int, reason: String) {
        self.query = query
        self.position = position
        self.reason = reason
    }

    /// One line: the query (about 80 characters around the position for a long one), the
    /// position and the problem.
    public var description: String {
        let shown = QuotedText.excerpt(query, around: position).text
        return "Unable to parse search \"\(shown)\" at position \(position): \(reason)"
    }
}
