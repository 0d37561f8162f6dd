import Foundation
import Persistence

extension SearchQuery {
    /// The fetch request that runs this query over books: ranked plain words as
    /// ``FetchRequest/searchText``, every other term as a predicate built from typed
    /// constants (never text spliced into a format).
    func fetchRequest(limit: Int?) -> FetchRequest {
        var request = FetchRequest(
            entityName: "Book", predicate: predicate, sortDescriptors: Catalog.searchOrder,
            fetchLimit: limit)
        request.searchText = searchText
        request.searchKeyPaths = Catalog.searchKeyPaths
        return request
    }

    /// What the search ranks with: the query itself when it is plain words (so that it ranks
    /// exactly as it always did), else the texts of the terms that every match contains in
    /// its title or author's name; nil when there are none (matches then come in title order).
    var searchText: String? {
        if isPlainWords { return text }
        let texts = groups.compactMap { group -> String? in
            guard group.count == 1, !group[0].isExcluded else { return nil }
            return group[0].condition.rankingText
        }
        return texts.isEmpty ? nil : texts.joined(separator: " ")
    }

    /// Every term of the query as one predicate, plain words included (each in the title or
    /// the authors), for a search sorted otherwise than by rank; nil for no terms.
    var predicateOfEveryTerm: FetchPredicate? {
        let conditions = groups.map { group -> FetchPredicate in
            let alternatives = group.map(\.predicate)
            return alternatives.dropFirst().reduce(alternatives[0]) { $0 || $1 }
        }
        guard let first = conditions.first else { return nil }
        return conditions.dropFirst().reduce(first) { $0 && $1 }
    }

    /// The conditions ``searchText`` does not already state: every term but the plain words
    /// that stand alone; nil when there are none.
    var predicate: FetchPredicate? {
        if isPlainWords { return nil }
        var conditions: [FetchPredicate] = []
        for group in groups {
            if group.count == 1, !group[0].isExcluded, case .word = group[0].condition { continue }
            let alternatives = group.map(\.predicate)
            conditions.append(alternatives.dropFirst().reduce(alternatives[0]) { $0 || $1 })
        }
        guard let first = conditions.first else { return nil }
        return conditions.dropFirst().reduce(first) { $0 && $1 }
    }
}

extension SearchQuery.Term {
    /// The term as a predicate over books.
    var predicate: FetchPredicate {
        isExcluded ? !condition.predicate : condition.predicate
    }
}

extension SearchQuery.Condition {
    /// The condition as a predicate over books, its text folded as the stored canonical
    /// forms are.
    var predicate: FetchPredicate {
        let title = FetchPredicate.key("canonicalTitle")
        let author = FetchPredicate.key("canonicalByline")
        switch self {
        case .word(let text):
            // As `searchText` reads a word: folded, split where folding made spaces, every
            // part in the title or the author's name; a word that folds to nothing matches
            // nothing.
            let each = CanonicalText.fold(text).split(separator: " ").map { part -> FetchPredicate in
                title.contains(String(part)) || author.contains(String(part))
            }
            guard let first = each.first else { return .alwaysFalse }
            return each.dropFirst().reduce(first) { $0 && $1 }
        case .phrase(let text):
            let folded = CanonicalText.fold(text)
            return title.contains(folded) || author.contains(folded)
        case .author(let text):
            return author.contains(CanonicalText.fold(text))
        case .title(let text):
            return title.contains(CanonicalText.fold(text))
        case .series(let text):
            return FetchPredicate.key("series").contains(text, [.caseInsensitive, .diacriticInsensitive])
        case .publisher(let text):
            return FetchPredicate.key("publisher").contains(text, [.caseInsensitive, .diacriticInsensitive])
        case .status(let status):
            return FetchPredicate.key("status") == status.rawValue
        case .rating(let comparison, let value):
            let rating = FetchPredicate.key("rating")
            switch comparison {
            case .equal: return rating == value
            case .atLeast: return rating >= value
            case .atMost: return rating <= value
            case .above: return rating > value
            case .below: return rating < value
            }
        case .language(let tag):
            let language = FetchPredicate.key("language")
            return language == tag || language.beginsWith(tag + "-")
        case .added(let from, let before):
            let added = FetchPredicate.key("dateAdded")
            return before.map { added >= from && added < $0 } ?? (added == from)
        case .tag(let name):
            return FetchPredicate.any("tags.canonicalName") == CanonicalText.fold(name)
        case .isbnPrefix(let digits):
            return FetchPredicate.key("isbn").beginsWith(digits)
        case .year(let year):
            let start = Self.firstDay(of: year), end = Self.firstDay(of: year + 1)
            let date = FetchPredicate.key("publishDate")
            return date >= start && date < end
        }
    }

    /// Midnight UTC on the first of January of `year`, as publication dates are stored.
    private static func firstDay(of year: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Catalog.calendarTimeZone
        return calendar.date(from: DateComponents(year: year, month: 1, day: 1))
            ?? Date(timeIntervalSince1970: 0)
    }
}
