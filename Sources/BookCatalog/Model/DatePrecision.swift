/// How much of a book's `publishDate` is known: the whole day, only the month, or only the
/// year (stored in `Book.datePrecision` as its raw value).
///
/// A date known to the month or year is stored as the first day of it, as the seed file
/// does (`1605-01-01` / `year`), so it sorts and groups as any other date; only its text
/// changes: a year-only book shows "1605", not "Jan 1, 1605".
public enum DatePrecision: String, Sendable, CaseIterable {
    /// The day is known.
    case day
    /// Only the month is known; the date is its first day.
    case month
    /// Only the year is known; the date is its first of January.
    case year

    /// The precision of a stored value: a book without one (such as a book of a catalogue
    /// migrated from the first model) has a known day, as every date then was.
    public init(storedValue: String?) {
        self = storedValue.flatMap(DatePrecision.init(rawValue:)) ?? .day
    }
}
