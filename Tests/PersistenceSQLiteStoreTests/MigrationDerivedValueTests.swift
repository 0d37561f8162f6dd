import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Derived values a migration recomputes follow a save's rules: an integer `@sum` past
/// `Int64` goes on exactly instead of wrapping, and a value that does not fit its attribute
/// refuses the migration, naming the object, instead of being stored as garbage or nil.
@Suite struct MigrationDerivedValueTests {
    /// Shelves and books; v2 derives `Shelf.pages` as the sum of its books' pages, stored
    /// as `type`.
    static func models(_ type: AttributeType) -> (ManagedObjectModel, ManagedObjectModel) {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Shelf") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "shelf", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("pages", .integer64)
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Shelf") {
                Attribute("name", .string)
                Attribute("pages", type, derived: "books.@sum.pages")
                Relationship("books", to: "Book", inverse: "shelf", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("pages", .integer64)
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
        }
        return (v1, v2)
    }

    /// A store with a shelf "short" (12 + 30 pages) and a shelf "long" (2 × Int64.max).
    static func fill(_ store: TemporaryStore, _ model: ManagedObjectModel) throws {
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        for (name, pages) in [("short", [Int64(12), 30]), ("long", [Int64.max, Int64.max])] {
            let shelf = try context.make("Shelf", name)
            for (index, count) in pages.enumerated() {
                let book = try context.make("Book", "\(name) \(index)")
                book["pages"] = count
                book.setObject(shelf, forKey: "shelf")
            }
        }
        try context.save()
    }

    @Test func anIntegerSumPastInt64RefusesTheMigrationNamingTheObject() throws {
        let (v1, v2) = Self.models(.integer64)
        let store = TemporaryStore()
        try Self.fill(store, v1)
        let before = try Data(contentsOf: store.url)
        let error = try #require(throws: MigrationError.self) {
            try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).migrate()
        }
        #expect(error.kind == .invalidData)
        #expect(error.entity == "Shelf" && error.property == "pages")
        #expect(error.description.hasPrefix("The store \(store.url.path) can't be migrated (Shelf.pages): it derives "
            + "'books.@sum.pages', whose value 18446744073709551614 for Shelf 2 does not fit: "), "\(error)")
        #expect(error.description.hasSuffix("; the migration was rolled back and the store is as it was"))
        #expect(try Data(contentsOf: store.url) == before)
        #expect(!FileManager.default.fileExists(atPath: StoreMigrator.backupURL(for: store.url).path))
        // A save refuses the same sum the same way.
        let context = try PersistentContainer(model: v2.copy(), storeURL: nil).viewContext
        let shelf = try context.make("Shelf", "long")
        for index in 0..<2 {
            let book = try context.make("Book", "tome \(index)")
            book["pages"] = Int64.max
            book.setObject(shelf, forKey: "shelf")
        }
        #expect(throws: ObjectAccessError.self) { try context.save() }
    }

    @Test func aDecimalSumOfIntegersPastInt64IsExact() throws {
        let (v1, v2) = Self.models(.decimal)
        let store = TemporaryStore()
        try Self.fill(store, v1)
        try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).migrate()
        #expect(try store.strings(["name"], of: "Shelf", v2.copy()) == [["long"], ["short"]])
        #expect(
            try store.values("pages", as: Decimal.self, of: "Shelf", v2.copy(), sortedBy: "name")
                == [try DecimalText.parse("18446744073709551614"), 42])
    }

    @Test func anIntegerSumWithinInt64IsStoredAsIs() throws {
        let (v1, v2) = Self.models(.integer64)
        let store = TemporaryStore()
        let context = try PersistentContainer(model: v1, storeURL: store.url).viewContext
        let shelf = try context.make("Shelf", "edge")
        for (index, pages) in [Int64.max - 5, 5, -7].enumerated() {
            let book = try context.make("Book", "b\(index)")
            book["pages"] = pages
            book.setObject(shelf, forKey: "shelf")
        }
        try context.save()
        try context.closeStore()
        try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).migrate()
        #expect(try store.values("pages", as: Int64.self, of: "Shelf", v2.copy()) == [Int64.max - 7])
    }
}
