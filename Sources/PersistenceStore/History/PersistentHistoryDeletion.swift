import Foundation

/// How far a store's history was deleted (`deleteHistory(before:)`): the last transaction
/// deleted and when it was committed, which the SQLite and PostgreSQL stores keep in their
/// metadata under `metadataKey`, so that a later request for the history after an earlier
/// place throws `PersistentHistoryError.expired` instead of answering part of it.
package struct PersistentHistoryDeletion: Sendable, Equatable {
    /// The metadata key the stores keep it under.
    package static let metadataKey = "historyDeletedThrough"

    /// The number of the last transaction deleted.
    package let transactionNumber: Int64
    /// When that transaction was committed, in seconds since 1970.
    package let timestamp: Double

    package init(transactionNumber: Int64, timestamp: Double) {
        self.transactionNumber = transactionNumber
        self.timestamp = timestamp
    }

    /// Reads the metadata's text, "<transaction number> <seconds since 1970>"; nil for any
    /// other text.
    package init?(metadataText text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let number = Int64(parts[0]), let timestamp = Double(parts[1]) else { return nil }
        self.init(transactionNumber: number, timestamp: timestamp)
    }

    /// The text kept in the metadata.
    package var metadataText: String { "\(transactionNumber) \(timestamp)" }

    /// The last transaction deleted and its time, as `PersistentHistoryBound` takes them.
    package var bound: (number: Int64, date: Date) { (transactionNumber, Date(timeIntervalSince1970: timestamp)) }
}
