import Foundation
import GRDB

/// The GRDB record of issue #47's app-shaped comparison: the five attributes of `AppBook`
/// and the row's id, with a hand-written `init(row:)` (columns by position, the order of
/// `SELECT *`) and `encode(to:)`, no `Codable`: the fastest a GRDB app writes a record.
/// The date is stored as seconds since 1970 (REAL), as Persistence stores it; the price
/// through GRDB's own `Decimal` conversion (TEXT); the color as its bytes.
struct AppGRDBBook: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "appBook"

    var id: Int64?
    var title: String
    var canonicalTitle: String?
    var publishDate: Date
    var price: Decimal
    var color: Data?

    init(title: String, canonicalTitle: String?, publishDate: Date, price: Decimal, color: Data?) {
        self.title = title
        self.canonicalTitle = canonicalTitle
        self.publishDate = publishDate
        self.price = price
        self.color = color
    }

    init(row: Row) throws {
        id = row[0]
        title = row[1]
        canonicalTitle = row[2]
        publishDate = Date(timeIntervalSince1970: row[3])
        price = row[4]
        color = row[5]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["title"] = title
        container["canonicalTitle"] = canonicalTitle
        container["publishDate"] = publishDate.timeIntervalSince1970
        container["price"] = price
        container["color"] = color
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The table, as a GRDB app's migration creates it; `INTEGER PRIMARY KEY` without
    /// AUTOINCREMENT (which would cost GRDB a `sqlite_sequence` write per insert).
    static func createTable(_ db: Database) throws {
        try db.create(table: databaseTableName) { t in
            t.primaryKey("id", .integer)
            t.column("title", .text).notNull()
            t.column("canonicalTitle", .text)
            t.column("publishDate", .double).notNull()
            t.column("price", .text).notNull()
            t.column("color", .blob)
        }
    }
}
