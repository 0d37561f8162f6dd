import Foundation
import Persistence

/// Deterministic made-up books for scale: `books seed --count N`, tests and benchmarks.
///
/// Book `i` is always the same book: its UUID, title (words from several languages, with
/// diacritics), author (one of 1,000), date (1800–2024), price and color follow from `i`.
public enum SyntheticBooks {
    private static let words = [
        "Ombre", "Été", "Noche", "Año", "Straße", "Łąka", "Dvořák", "Ærø", "Œuvre", "Kırmızı",
        "Việt", "Söder", "Fjörður", "Pájaro", "Coração", "Müller", "Zielony", "Hrad", "Sjön",
        "Cœur", "River", "Light", "Stone", "Winter", "Garden", "Mirror", "Silence", "Harbor",
        "Ŝipo", "Øy", "Ñandú", "Große", "Lumière", "Čas", "Ingen", "Þoka", "Świt", "Ilha",
    ]
    private static let givenNames = ["Ana", "Łukasz", "Søren", "Zoë", "José", "Ngọc", "Çağla", "Jiří", "Ólafur", "Mia"]
    private static let familyNames = [
        "Nowak", "Åberg", "García", "Dvořáková", "Müller", "Nguyễn", "Yılmaz", "Þórsdóttir", "Lefèvre", "Smith",
    ]

    /// Every price a synthetic book can have, 1.00…50.98, made once: `Decimal` division is
    /// slow enough to be a noticeable share of seeding a book.
    private static let prices: [Decimal] = (100..<5_099).map { Decimal($0) / 100 }

    /// The synthetic book number `index` (0-based).
    public static func book(_ index: Int) -> SeedBook {
        var generator = SplitMix64(seed: UInt64(index) &+ 0x9E37_79B9_7F4A_7C15)
        let wordCount = 2 + Int(generator.next() % 4)
        let title = (0..<wordCount).map { _ in words[Int(generator.next() % UInt64(words.count))] }
            .joined(separator: " ") + " \(index)"
        let authorNumber = Int(generator.next() % 1_000)
        let author = "\(givenNames[authorNumber % 10]) \(familyNames[authorNumber / 10 % 10]) \(authorNumber / 100)"
        let day = Int(generator.next() % UInt64(82_000)) - 62_000  // 1800…2024, in days since 1970
        let cents = Int(generator.next() % 4_999) + 100
        let rgb = generator.next()
        var uuidBytes = SHA256.hash(Data("books synthetic \(index)".utf8)).prefix(16).map { $0 }
        uuidBytes[6] = uuidBytes[6] & 0x0F | 0x40
        uuidBytes[8] = uuidBytes[8] & 0x3F | 0x80
        let uuid = uuidBytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        return SeedBook(
            uuid: uuid, title: title, author: author,
            publishDate: Date(timeIntervalSince1970: Double(day) * 86_400),
            price: prices[cents - 100],
            color: Color(red: UInt8(rgb & 0xFF), green: UInt8(rgb >> 8 & 0xFF), blue: UInt8(rgb >> 16 & 0xFF)))
    }
}
