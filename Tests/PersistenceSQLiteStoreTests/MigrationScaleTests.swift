import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Migration of a large store, for measuring: off unless `PERSISTENCE_MIGRATION_ROWS` gives
/// the number of books (e.g. 100000). Prints the times; checks every row survived.
@Suite struct MigrationScaleTests {
    static let rows = Int(ProcessInfo.processInfo.environment["PERSISTENCE_MIGRATION_ROWS"] ?? "") ?? 0

    @Test(.enabled(if: rows > 0)) func aLargeStoreMigratesInOneTransaction() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("year", .integer16)
                Relationship("author", to: "Author", inverse: "books")
                UniquenessConstraint("title")
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Author") {
                Attribute("name", .string)
                Attribute("bookCount", .integer64, derived: "books.@count")
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("heading", .string, renamingIdentifier: "title")
                Attribute("canonicalHeading", .string, derived: "canonical:(heading)")
                Attribute("year", .integer32)
                Attribute("rating", .integer16, default: "3")
                Relationship("author", to: "Author", inverse: "books")
                UniquenessConstraint("heading")
            }
        }
        let store = TemporaryStore()
        var clock = ContinuousClock.now
        do {
            let container = try PersistentContainer(model: v1, storeURL: store.url)
            let context = container.viewContext
            var authors: [ManagedObject] = []
            for i in 0..<max(1, Self.rows / 10) {
                let author = try context.insertObject(forEntityName: "Author")
                author["name"] = "Author \(i)"
                authors.append(author)
            }
            for i in 0..<Self.rows {
                let book = try context.insertObject(forEntityName: "Book")
                book["title"] = "Título número \(i)"
                book["year"] = Int16(1900 + i % 120)
                book.setObject(authors[i % authors.count], forKey: "author")
            }
            try context.save()
        }
        print("filled \(Self.rows) books in \(ContinuousClock.now - clock)")
        clock = .now
        try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).migrate()
        print("migrated \(Self.rows) books in \(ContinuousClock.now - clock)")
        #expect(try store.count("Book", v2.copy(), where: "rating == 3 AND canonicalHeading != nil") == Self.rows)
        #expect(try store.values("bookCount", as: Int64.self, of: "Author", v2.copy()).reduce(0) { $0 + ($1 ?? 0) } == Int64(Self.rows))
    }
}
