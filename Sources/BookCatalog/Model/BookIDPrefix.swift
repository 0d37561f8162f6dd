import Foundation

/// What a user types to name a book: its UUID, or a prefix of it of at least four
/// hexadecimal digits, in any letter case, hyphens allowed anywhere (`a9ef420f`,
/// `A9EF420F-03`). Like an abbreviated Git commit, a prefix names a book when exactly one
/// book's UUID begins with it (see ``Catalog/book(withID:)``).
public struct BookIDPrefix: Sendable, Hashable, CustomStringConvertible {
    /// The fewest digits a prefix may have: fewer would name a sixteenth of the catalogue.
    public static let minimumDigits = 4

    /// The prefix's hexadecimal digits, uppercase, without hyphens: 4 to 32 of them.
    public let digits: String

    /// The prefix `text` spells, or nil when it has fewer than four or more than 32 digits,
    /// or a character that is neither a hexadecimal digit nor a hyphen.
    public init?(_ text: String) {
        let digits = text.uppercased().filter { $0 != "-" }
        guard (Self.minimumDigits...32).contains(digits.count),
            digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ("A"..."F").contains($0) })
        else { return nil }
        self.digits = digits
    }

    /// The prefix as a UUID's text begins: the digits with hyphens where a UUID has them
    /// (`A9EF420F-03`).
    public var description: String { ShortIDs.hyphenated(digits) }

    /// Whether the prefix is a whole UUID.
    public var isWholeUUID: Bool { digits.count == 32 }

    /// The smallest and the largest UUID that begin with the prefix.
    var bounds: (lower: UUID, upper: UUID) {
        func uuid(paddedWith pad: Character) -> UUID {
            let text = ShortIDs.hyphenated(digits + String(repeating: pad, count: 32 - digits.count))
            guard let uuid = UUID(uuidString: text) else { preconditionFailure("32 hex digits make a UUID") }
            return uuid
        }
        return (uuid(paddedWith: "0"), uuid(paddedWith: "F"))
    }
}

/// An ID that names no book, or several.
public enum BookIDError: Error, CustomStringConvertible, Equatable {
    /// No book's UUID begins with the prefix.
    case noSuchBook(BookIDPrefix)
    /// Several books' UUIDs begin with the prefix: their UUIDs (the first ten, in order) and
    /// how many there are.
    case ambiguous(BookIDPrefix, candidates: [String], count: Int)

    /// One line naming the ID and, when ambiguous, the books it could mean.
    public var description: String {
        switch self {
        case .noSuchBook(let prefix):
            return prefix.isWholeUUID
                ? "The catalogue has no book with UUID \(prefix)."
                : "The catalogue has no book whose ID begins with \(prefix)."
        case .ambiguous(let prefix, let candidates, let count):
            let more = count > candidates.count ? ", and \(count - candidates.count) more" : ""
            return "The ID \(prefix) is ambiguous: \(count) books begin with it (\(candidates.joined(separator: ", "))\(more)); type more of it."
        }
    }
}
