import Foundation

/// How Core Data writes a Date in an SQLite store: a `TIMESTAMP` column holding seconds since
/// the reference date, 2001-01-01 00:00:00 UTC (Foundation's `timeIntervalSinceReferenceDate`).
enum CoreDataTimestamp {
    /// The date a column value stands for.
    static func date(fromSeconds seconds: Double) -> Date {
        Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// The column value for a date.
    static func seconds(of date: Date) -> Double {
        date.timeIntervalSinceReferenceDate
    }
}
