import Foundation
import Persistence

/// Reads a seed file's entries one at a time, each checked as a ``SeedBook``, through a
/// ``JSONArrayReader``: memory holds one entry, not the file.
struct SeedEntryReader {
    /// The file's name in messages.
    let file: String
    private var reader: JSONArrayReader
    /// The entry that first had each UUID, when duplicates are checked: 16 bytes of key
    /// and a number per entry, the only thing the check keeps of the file.
    private var firstEntry: [UUID: Int] = [:]
    private let checksDuplicates: Bool

    /// The number of entries read so far.
    private(set) var count = 0

    /// A reader of the bytes `read` returns (see ``JSONArrayReader/Source``).
    ///
    /// - Parameters:
    ///   - checksDuplicates: refuse an entry whose UUID an earlier entry has, naming both.
    ///   - bufferSize: bytes read at a time.
    init(file: String, checksDuplicates: Bool, bufferSize: Int = 64 * 1024, read: @escaping JSONArrayReader.Source) {
        self.file = file
        self.reader = JSONArrayReader(
            bufferSize: bufferSize, maximumElementSize: Self.maximumEntrySize, maximumDepth: 16, read: read)
        self.checksDuplicates = checksDuplicates
    }

    /// The largest entry accepted, in bytes of JSON: far above any real book (a title is
    /// at most 2,000 Unicode scalars), so that one runaway entry cannot fill the memory.
    static let maximumEntrySize = 1 << 20

    /// The next entry, checked; nil after the last.
    ///
    /// - Throws: `CatalogInputError` naming the file, and the entry and field where there is
    ///   one; whatever the source throws.
    mutating func next() throws -> SeedBook? {
        let element: JSONArrayReader.Element
        do {
            guard let next = try reader.next() else { return nil }
            element = next
        } catch let error as JSONArrayReaderError {
            throw refusal(error)
        }
        count = element.index
        let place = "\(file) entry \(element.index)"
        let book = try SeedBook(entry: element.value, place: place)
        if checksDuplicates {
            if let first = firstEntry[book.uuid] {
                throw CatalogInputError(
                    field: "\(place): uuid", value: book.uuid.uuidString, reason: "entry \(first) has the same UUID")
            }
            firstEntry[book.uuid] = element.index
        }
        return book
    }

    /// The error for a file that is not a well-formed JSON array of entries.
    private func refusal(_ error: JSONArrayReaderError) -> CatalogInputError {
        let place = "line \(error.line), column \(error.column)"
        let reason: String
        switch error.kind {
        case .notAnArray:
            reason = "expected a JSON array of books"
        case .truncated:
            reason = "it is not valid JSON (the file ends unexpectedly at \(place); is it truncated?)"
        case .malformed(let why):
            reason = "it is not valid JSON (\(why) at \(place))"
        case .elementTooLarge(let index, let limit):
            reason = "entry \(index), at \(place), is larger than \(limit / 1024 / 1024) MB; a book's entry is far smaller"
        }
        return CatalogInputError(field: "seed file", value: file, reason: reason)
    }
}
