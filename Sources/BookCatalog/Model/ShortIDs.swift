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
    /// The first four bytes (eight digits) of the UUIDs in `longer`: most books' are not
    /// among them, and a lookup here hashes four bytes where `longer` hashes sixteen.
    private var longerPrefixes: Set<UInt32> = []
    /// The last UUID added.
    private var previous: UUID?

    /// No books yet: every short ID has the minimum length (what a printer that shows no
    /// short IDs, such as JSON's, passes around).
    public init() {}

    /// Adds the next book, in ascending UUID order.
    mutating func append(_ uuid: UUID) {
        if let previous {
            let shared = Self.sharedDigits(previous, uuid)
            if shared >= Self.minimumDigits {
                longer[uuid] = max(longer[uuid] ?? 0, shared + 1)
                longer[previous] = max(longer[previous] ?? 0, shared + 1)
                longerPrefixes.insert(Self.prefix(of: uuid))
            }
        }
        previous = uuid
    }

    /// The book's short ID: `A9EF420F`, or longer (`A9EF420F-03`) when another book's UUID
    /// begins with the same eight digits.
    public func shortID(of uuid: UUID) -> String {
        var count = Self.minimumDigits
        if !longerPrefixes.isEmpty, longerPrefixes.contains(Self.prefix(of: uuid)), let digits = longer[uuid] {
            count = min(32, digits)
        }
        return Self.text(of: uuid, digits: count)
    }

    /// A UUID's 32 hexadecimal digits, uppercase.
    static func digits(of uuid: UUID) -> String {
        text(of: uuid, digits: 32, hyphens: false)
    }

    /// The first `digits` hexadecimal digits of `uuid`, uppercase, with hyphens where a
    /// UUID's text has them unless `hyphens` is false; written from the UUID's bytes (going
    /// through `uuidString` and filtering its characters is a large share of a long listing).
    static func text(of uuid: UUID, digits: Int, hyphens: Bool = true) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: digits + 4) { text in
                var count = 0
                for index in 0..<digits {
                    if hyphens, hasHyphen(before: index) {
                        text[count] = UInt8(ascii: "-")
                        count += 1
                    }
                    let byte = bytes[index / 2]
                    text[count] = hexDigits[Int(index % 2 == 0 ? byte >> 4 : byte & 0x0F)]
                    count += 1
                }
                return count
            }
        }
    }

    /// The hexadecimal digits' UTF-8, uppercase.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// How many leading hexadecimal digits two UUIDs share.
    static func sharedDigits(_ a: UUID, _ b: UUID) -> Int {
        withUnsafeBytes(of: a.uuid) { x in
            withUnsafeBytes(of: b.uuid) { y in
                for index in 0..<16 where x[index] != y[index] {
                    return index * 2 + ((x[index] ^ y[index]) & 0xF0 == 0 ? 1 : 0)
                }
                return 32
            }
        }
    }

    /// A UUID's first four bytes.
    private static func prefix(of uuid: UUID) -> UInt32 {
        UInt32(uuid.uuid.0) << 24 | UInt32(uuid.uuid.1) << 16 | UInt32(uuid.uuid.2) << 8 | UInt32(uuid.uuid.3)
    }

    /// Hexadecimal digits with hyphens where a UUID's text has them.
    static func hyphenated(_ digits: String) -> String {
        var text = ""
        for (index, digit) in digits.enumerated() {
            if hasHyphen(before: index) { text.append("-") }
            text.append(digit)
        }
        return text
    }

    /// Whether a UUID's text has a hyphen before its digit at `index`: after digits 8, 12,
    /// 16 and 20.
    private static func hasHyphen(before index: Int) -> Bool {
        index == 8 || index == 12 || index == 16 || index == 20
    }
}

extension Catalog {
    /// The short IDs of every book in the catalogue; one pass over the books' UUIDs in UUID
    /// order, read as dictionary rows (no book object is made: making an object per book
    /// only to read its UUID is a large share of a long listing).
    public func shortIDs() throws -> ShortIDs {
        var ids = ShortIDs()
        let request = FetchRequest(entityName: "Book", sortDescriptors: [SortKey("uuid")])
        try context.forEachDictionary(request, properties: ["uuid"]) { row in
            if let uuid = row["uuid"] as? UUID { ids.append(uuid) }
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
