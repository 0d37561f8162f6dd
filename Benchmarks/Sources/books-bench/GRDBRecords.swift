import BookCatalog
import Foundation
import GRDB

/// A book as a GRDB record, written the fastest way GRDB offers: `init(row:)` reads the
/// columns by position (the order of `SELECT *`, the table's order) and `encode(to:)` writes
/// them by hand, no `Codable`. Values are stored as the raw C side and Persistence store
/// them (same schema): the UUID as its uppercase text, the date as seconds since 1970 (REAL),
/// the price through GRDB's own `Decimal` conversion (TEXT), the color as the catalogue's
/// five bytes.
struct GRDBBook: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "Book"

    var id: Int64?
    var canonicalTitle: String?
    var color: Color?
    var price: Decimal
    var publishDate: Date
    var title: String
    var uuid: UUID
    var authorID: Int64?

    init(
        id: Int64? = nil, canonicalTitle: String?, color: Color?, price: Decimal, publishDate: Date, title: String,
        uuid: UUID, authorID: Int64?
    ) {
        self.id = id
        self.canonicalTitle = canonicalTitle
        self.color = color
        self.price = price
        self.publishDate = publishDate
        self.title = title
        self.uuid = uuid
        self.authorID = authorID
    }

    init(row: Row) throws {
        id = row[0]
        canonicalTitle = row[1]
        color = try row.withUnsafeData(atIndex: 2) { data in data.flatMap(Color.init(storedBytes:)) }
        price = row[3]
        publishDate = Date(timeIntervalSince1970: row[4])
        title = row[5]
        uuid = row[6]
        authorID = row[7]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["_id"] = id
        container["canonicalTitle"] = canonicalTitle
        container["color"] = color?.storedBytes
        container["price"] = price
        container["publishDate"] = publishDate.timeIntervalSince1970
        container["title"] = title
        container["uuid"] = uuid.uuidString
        container["author"] = authorID
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// An author as a GRDB record.
struct GRDBAuthor: MutablePersistableRecord {
    static let databaseTableName = "Author"

    var id: Int64?
    var canonicalName: String?
    var name: String

    func encode(to container: inout PersistenceContainer) throws {
        container["_id"] = id
        container["canonicalName"] = canonicalName
        container["name"] = name
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Color {
    /// The five bytes `ColorToDataTransformer` stores: format 1, red, green, blue, alpha.
    var storedBytes: Data {
        withUnsafeBytes(of: (UInt8(1), red, green, blue, alpha)) { Data($0) }
    }

    /// Reads `storedBytes`; nil for anything else.
    init?(storedBytes data: Data) {
        let color = data.withUnsafeBytes { bytes -> Color? in
            guard bytes.count == 5, bytes[0] == 1 else { return nil }
            return Color(red: bytes[1], green: bytes[2], blue: bytes[3], alpha: bytes[4])
        }
        guard let color else { return nil }
        self = color
    }
}
