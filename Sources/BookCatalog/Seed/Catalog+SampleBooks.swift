import Foundation
import Persistence

/// The sample books are a demo, not the reader's data: `books seed --remove` takes out the
/// ones still as the seed left them.
extension Catalog {
    /// What ``removeSampleBooks()`` did.
    public struct SampleBooksRemoval: Sendable, Equatable {
        /// Sample books taken out: as the seed left them.
        public var removed: Int
        /// Sample books kept because the reader changed them (rated, tagged, annotated,
        /// edited): those are theirs now; `books delete` takes them out one by one.
        public var kept: Int
    }

    /// Deletes, in one save (one command for `books undo`), every bundled sample book that
    /// is exactly as the seed wrote it: the seed file's title, author, date, price, color
    /// and language, and no ISBN, rating, status, notes or tags of the reader's. A sample
    /// book the reader changed is kept. Records that the catalogue's sample books were dealt
    /// with, so that a listing never seeds them again, even into an empty catalogue.
    ///
    /// - Throws: `CatalogInputError` if the bundled seed file is malformed; the save's errors.
    public func removeSampleBooks() throws -> SampleBooksRemoval {
        var samples: [UUID: SeedBook] = [:]
        for seed in try Self.bundledSeedBooks() { samples[seed.uuid] = seed }
        let found = try books(withValues: Array(samples.keys), forKey: "uuid") { $0.uuid }
        var authors: [ObjectID: String] = [:]
        let untouched = found.values.filter { book in
            samples[book.uuid].map { isAsSeeded(book, $0, authors: &authors) } ?? false
        }
        if !untouched.isEmpty { try delete(untouched.sorted { $0.uuid.uuidString < $1.uuid.uuidString }) }
        try recordSampleBooks(.chosenByUser)
        return SampleBooksRemoval(removed: untouched.count, kept: found.count - untouched.count)
    }

    /// Whether `book` holds what `seed` gave it and nothing of the reader's.
    private func isAsSeeded(_ book: Book, _ seed: SeedBook, authors: inout [ObjectID: String]) -> Bool {
        book.title == seed.title && authorNames(of: book, cache: &authors) == [seed.author]
            && book.publishDate == seed.publishDate && book.price == seed.price && book.color == seed.color
            && book.datePrecision == seed.datePrecision.rawValue && book.language == seed.language
            && book.isbn == nil && book.rating == nil && book.status == nil && book.notes == nil && book.tags.isEmpty
            && book.series == nil && book.seriesNumber == nil && book.publisher == nil && book.pages == nil
            && book.format == nil && book.dateRead == nil && book.readCount == nil && book.review == nil
    }
}
