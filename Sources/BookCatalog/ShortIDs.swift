import Foundation
import Persistence

/// The short IDs of a catalogue's books, as Git abbreviates commits: the shortest prefix of
/// a book's UUID that no other book's UUID shares, and never fewer than eight digits (a
/// UUID's first group: `A9EF420F`).
///
/// Made by one pass over the catalogue in UUID order (``Catalog/shortIDs()``), which keeps
/// only the books whose first eight digits another book shares: in a catalogue of a
/// million books a few dozen, each with the length its closest neighbour forces.
public struct ShortIDs: Sendable {
    /// The fewest digits of a short ID.
    public static let minimumDigits = 8

    /// Digits needed by the books that need more than ``minimumDigits``.
    private var longer: [UUID: Int] = [:]
    /// The last UUID added, and its digits.
    private var previous: (uuid: UUID, digits: String)?

    /// No books yet: every short ID has the minimum length (what a printer that shows no
    /// short IDs, such as JSON's, passes around).
    public init() {}

    /// Adds the next book, in ascending UUID order.
    mutating func append(_ uuid: UUID) {
        let digits = Self.digits(of: uuid)
        if let previous {
            let shared = zip(previous.digits, digits).prefix { $0 == $1 }.count
            if shared >= Self.minimumDigits {
                longer[uuid] = max(longer[uuid] ?? 0, shared + 1)
                longer[previous.uuid] = max(longer[previous.uuid] ?? 0, shared + 1)
            }
        }
        previous = (uuid, digits)
    }

    /// The book's short ID: `A9EF420F`, or longer (`A9EF420F-03`) when another book's UUID
    /// begins with the same eight digits.
    public func shortID(of uuid: UUID) -> String {
        let count = min(32, longer[uuid] ?? Self.minimumDigits)
        return Self.hyphenated(String(Self.digits(of: uuid).prefix(count)))
    }

    /// A UUID's 32 hexadecimal digits, uppercase.
    static func digits(of uuid: UUID) -> String {
        uuid.uuidString.filter { $0 != "-" }
    }

    /// Hexadecimal digits with hyphens where a UUID's text has them (after digits 8, 12,
    /// 16 and 20).
    static func hyphenated(_ digits: String) -> String {
        var text = ""
        for (index, digit) in digits.enumerated() {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(digit)
        }
        return text
    }
}

extension Catalog {
    /// The short IDs of every book in the catalogue; one pass over the books in UUID order.
    public func shortIDs() throws -> ShortIDs {
        var ids = ShortIDs()
        let request = FetchRequest(entityName: "Book", sortDescriptors: [SortKey("uuid")])
        try context.forEach(request) { object in
            if let book = object as? Book { ids.append(book.uuid) }
            return true
        }
        return ids
    }

    /// The book whose UUID begins with `prefix`.
    ///
    /// - Throws: ``BookIDError`` when no book's UUID begins with it, or several do (naming
    ///   them, so that the user can type more).
    public func book(withID prefix: BookIDPrefix) throws -> Book {
        let bounds = prefix.bounds
        var request = FetchRequest(entityName: "Book", sortDescriptors: [SortKey("uuid")])
        request.predicate = try FetchPredicate("uuid >= %@ AND uuid <= %@", bounds.lower, bounds.upper)
        let books = try context.fetch(request).compactMap { $0 as? Book }
        guard books.count == 1, let book = books.first else {
            if books.isEmpty { throw BookIDError.noSuchBook(prefix) }
            throw BookIDError.ambiguous(
                prefix, candidates: books.prefix(10).map(\.uuid.uuidString), count: books.count)
        }
        return book
    }
}
