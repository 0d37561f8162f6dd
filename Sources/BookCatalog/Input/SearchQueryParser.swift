import Foundation
import Persistence

/// Reads the text of a ``SearchQuery`` into its groups of terms, one character at a time,
/// so that every error names the character offset where it was found.
struct SearchQueryParser {
    private let query: String
    private let characters: [Character]
    private var index = 0

    init(_ query: String) {
        self.query = query
        characters = Array(query)
    }

    /// The groups of the query: terms separated by white space, those joined by `OR` in one
    /// group.
    mutating func parseGroups() throws(SearchQueryError) -> [[SearchQuery.Term]] {
        var groups: [[SearchQuery.Term]] = []
        var starts: [[Int]] = []
        var pendingOr: Int?
        while true {
            skipWhiteSpace()
            guard index < characters.count else { break }
            let start = index
            if isOrKeyword(at: start) {
                guard !groups.isEmpty, pendingOr == nil else {
                    throw error(at: start, "'OR' needs a term before it")
                }
                pendingOr = start
                index += 2
                continue
            }
            let term = try parseTerm()
            if pendingOr != nil, !groups.isEmpty {
                groups[groups.count - 1].append(term)
                starts[starts.count - 1].append(start)
                pendingOr = nil
            } else {
                groups.append([term])
                starts.append([start])
            }
        }
        if let pendingOr { throw error(at: pendingOr, "'OR' needs a term after it") }
        try checkConditionCount(groups, starts: starts)
        return groups
    }

    /// Refuses a query with more than ``SearchQuery/maximumTerms`` terms that become
    /// conditions of the fetch's predicate (every term but the plain words that stand alone,
    /// which the search text holds and limits itself), naming the first one too many.
    private func checkConditionCount(_ groups: [[SearchQuery.Term]], starts: [[Int]]) throws(SearchQueryError) {
        var count = 0
        for (group, positions) in zip(groups, starts) {
            if group.count == 1, !group[0].isExcluded, case .word = group[0].condition { continue }
            for position in positions {
                count += 1
                if count > SearchQuery.maximumTerms {
                    throw error(at: position, "a search has at most \(SearchQuery.maximumTerms) terms besides plain words")
                }
            }
        }
    }

    // MARK: - Terms

    /// One term: `-` perhaps, then a quoted phrase, a field and its value, or a word.
    private mutating func parseTerm() throws(SearchQueryError) -> SearchQuery.Term {
        var isExcluded = false
        if characters[index] == "-", index + 1 < characters.count,
            !characters[index + 1].isWhitespace, characters[index + 1] != "-"
        {
            isExcluded = true
            index += 1
        }
        if characters[index] == "\"" {
            return SearchQuery.Term(condition: .phrase(try parseQuoted()), isExcluded: isExcluded)
        }
        if let unknown = unknownFieldPrefix(at: index) {
            throw error(
                at: index,
                "unknown field '\(unknown)'; the fields are \(SearchQuery.Field.allCases.map(\.rawValue).joined(separator: ", ")) "
                    + "(quote the term to search for its text)")
        }
        if let field = fieldPrefix(at: index) {
            index += field.rawValue.count + 1
            return SearchQuery.Term(condition: try parseValue(of: field), isExcluded: isExcluded)
        }
        return SearchQuery.Term(condition: .word(readWord()), isExcluded: isExcluded)
    }

    /// The value after `field:`: quoted text or a word, checked as the field requires.
    private mutating func parseValue(
        of field: SearchQuery.Field
    ) throws(SearchQueryError) -> SearchQuery.Condition {
        let start = index
        guard index < characters.count, !characters[index].isWhitespace else {
            throw error(at: start, "expected a value after '\(field.rawValue):'")
        }
        let value = characters[index] == "\"" ? try parseQuoted() : readWord()
        func text() throws(SearchQueryError) -> String {
            guard !CanonicalText.fold(value).isEmpty else {
                throw error(at: start, "expected text to look for after '\(field.rawValue):'")
            }
            return value
        }
        switch field {
        case .author: return .author(try text())
        case .title: return .title(try text())
        case .series: return .series(try text())
        case .publisher: return .publisher(try text())
        case .status:
            guard let status = ReadingStatus(rawValue: value.lowercased()) else {
                throw error(at: start, "expected a status: to-read, reading or read")
            }
            return .status(status)
        case .rating:
            let comparison = [SearchQuery.RatingComparison.atLeast, .atMost, .above, .below].first { value.hasPrefix($0.rawValue) }
                ?? .equal
            let number = value.dropFirst(comparison.rawValue.count)
            guard number.count == 1, let digit = number.first?.wholeNumberValue, number.first?.isASCII == true,
                (0...5).contains(digit)
            else {
                throw error(at: start, "expected a rating from 0 to 5, such as rating:4 or rating:>=4")
            }
            return .rating(comparison, Int16(digit))
        case .language:
            guard let tag = try? BookInput.language(value) else {
                throw error(at: start, "expected a language tag such as language:pt or language:pt-BR")
            }
            return .language(tag)
        case .added:
            guard let period = try? DateText.parseTypedDate(value, timeZone: Catalog.calendarTimeZone) else {
                throw error(at: start, "expected a year, a month or a day, such as added:2024 or added:2024-03")
            }
            return .added(from: period.start, before: period.end)
        case .tag: return .tag(try text())
        case .isbn:
            guard let digits = Self.isbnPrefix(value) else {
                throw error(at: start, "expected the digits an ISBN starts with, such as isbn:978-0-306")
            }
            return .isbnPrefix(digits)
        case .year:
            guard value.count <= 4, value.allSatisfy({ $0.isASCII && $0.isWholeNumber }),
                let year = Int(value), year >= 1
            else {
                throw error(at: start, "expected a year such as year:1961")
            }
            return .year(year)
        }
    }

    /// The text between a quote at the current position and the next one; no escapes
    /// (a backslash is a character like any other).
    private mutating func parseQuoted() throws(SearchQueryError) -> String {
        let open = index
        guard let close = characters[(open + 1)...].firstIndex(of: "\"") else {
            throw error(at: open, "the quote is not closed")
        }
        let text = String(characters[(open + 1)..<close])
        guard !CanonicalText.fold(text).isEmpty else {
            throw error(at: open, "expected text between the quotes")
        }
        index = close + 1
        guard index == characters.count || characters[index].isWhitespace else {
            throw error(at: index, "expected a space after the closing quote")
        }
        return text
    }

    /// The characters up to the next white space.
    private mutating func readWord() -> String {
        let start = index
        while index < characters.count && !characters[index].isWhitespace { index += 1 }
        return String(characters[start..<index])
    }

    private mutating func skipWhiteSpace() {
        while index < characters.count && characters[index].isWhitespace { index += 1 }
    }

    // MARK: - Recognising syntax

    /// `OR` on its own, between white space (or the ends of the query).
    private func isOrKeyword(at position: Int) -> Bool {
        position + 1 < characters.count && characters[position] == "O" && characters[position + 1] == "R"
            && (position + 2 == characters.count || characters[position + 2].isWhitespace)
    }

    /// The field whose name (in any letter case) and `:` start the text at `position`.
    private func fieldPrefix(at position: Int) -> SearchQuery.Field? {
        for field in SearchQuery.Field.allCases {
            let name = field.rawValue
            let end = position + name.count
            guard end < characters.count, characters[end] == ":" else { continue }
            if String(characters[position..<end]).lowercased() == name { return field }
        }
        return nil
    }

    /// The name of a field that is not one, when the text at `position` has the shape of a
    /// field term: 2 to 20 ASCII letters, `:`, then a value (`stauts:read`, `note:x`).
    private func unknownFieldPrefix(at position: Int) -> String? {
        var end = position
        while end < characters.count, characters[end].isASCII, characters[end].isLetter { end += 1 }
        guard (2...20).contains(end - position), end + 1 < characters.count, characters[end] == ":",
            !characters[end + 1].isWhitespace, fieldPrefix(at: position) == nil
        else { return nil }
        return String(characters[position..<end])
    }

    /// The digits an ISBN-13 starts with, from the typed prefix: hyphens are ignored, and a
    /// whole ISBN-10 is turned into the ISBN-13 it names, as ISBNs are stored.
    static func isbnPrefix(_ text: String) -> String? {
        let compact = text.filter { $0 != "-" }
        if compact.count == 10, let thirteen = try? BookInput.isbn(compact) { return thirteen }
        guard (1...13).contains(compact.count), compact.allSatisfy({ $0.isASCII && $0.isWholeNumber })
        else { return nil }
        return compact
    }

    private func error(at position: Int, _ reason: String) -> SearchQueryError {
        SearchQueryError(query: query, position: position, reason: reason)
    }
}
