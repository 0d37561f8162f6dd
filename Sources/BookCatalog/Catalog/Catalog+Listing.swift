import Foundation
import Persistence

extension Catalog {
    /// The books published from `since` through `until`, both inclusive and both optional:
    /// `books list --since 1960 --until 1969-06`. Each is a year (`1961`), a month
    /// (`1961-03`), a day (`1961-03-15`) or an ISO 8601 date and time with its zone; a
    /// period counts whole, so `--until 1969` includes the last day of 1969. Days are UTC
    /// days, as publication dates are stored (see ``calendarTimeZone``).
    ///
    /// - Returns: nil when neither is given.
    /// - Throws: `DateTextError` naming the text that is not a date.
    public static func publicationPredicate(since: String?, until: String?) throws -> FetchPredicate? {
        var parts: [FetchPredicate] = []
        if let since {
            let date = try DateText.parseTypedDate(since, timeZone: calendarTimeZone)
            parts.append(PredicateKey.key("publishDate") >= date.start)
        }
        if let until {
            let date = try DateText.parseTypedDate(until, timeZone: calendarTimeZone)
            let publishDate = PredicateKey.key("publishDate")
            parts.append(date.end.map { publishDate < $0 } ?? (publishDate <= date.start))
        }
        return parts.dropFirst().reduce(parts.first) { all, part in all.map { $0 && part } }
    }
}
