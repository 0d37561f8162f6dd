import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Decimal `@sum` wherever it is computed outside SQL fetches: derived attributes on save,
/// derived attributes recomputed by a migration, and the evaluator's overflow; all exact,
/// and an overflow is an error rather than a stored NaN.
@Suite struct DecimalDerivationTests {
    static let huge = "99999999999999999999999999999999999999E+127"

    static func model(derived: Bool, version: String = "1") -> ManagedObjectModel {
        ManagedObjectModel(versionIdentifier: version) {
            Entity("Author") {
                Attribute("name", .string)
                if derived { Attribute("total", .decimal, derived: "books.@sum.price") }
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("price", .decimal)
                Relationship("author", to: "Author", inverse: "books")
            }
        }
    }

    /// Inserts an author named `name` with books at `prices`.
    @discardableResult
    static func author(_ context: ManagedObjectContext, _ name: String, _ prices: [String]) throws -> ManagedObject {
        let author = try context.make("Author", name)
        for (index, price) in prices.enumerated() {
            let book = try context.make("Book", "\(name) \(index)")
            try book.setValue(try DecimalText.parse(price), forKey: "price")
            book.setObject(author, forKey: "author")
        }
        return author
    }

    @Test func aDerivedSumIsExactOnSave() throws {
        let context = try PersistentContainer(model: Self.model(derived: true), storeURL: nil).viewContext
        let author = try Self.author(context, "tenths", ["0.1", "0.2", "-0.05"])
        try context.save()
        #expect(author.value(forKey: "total", as: Decimal.self) == (try DecimalText.parse("0.25")))
        let found = try context.fetch(FetchRequest(entityName: "Author", predicate: try FetchPredicate("total == 0.25")))
        #expect(names(found) == ["tenths"])
    }

    @Test func aDerivedSumOfThirtyNineDigitsIsRoundedToThirtyEightAndReadsBack() throws {
        let store = TemporaryStore()
        let nines = String(repeating: "9", count: 38)
        do {
            let context = try PersistentContainer(model: Self.model(derived: true), storeURL: store.url).viewContext
            try Self.author(context, "nines", [nines, nines])
            try context.save()
        }
        let context = try PersistentContainer(model: Self.model(derived: true), storeURL: store.url).viewContext
        let author = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
        // 199…998 (39 digits) rounds to 2 × 10³⁸.
        let expected = "2" + String(repeating: "0", count: 38)
        #expect(author.value(forKey: "total", as: Decimal.self).map(DecimalText.format) == expected)
        let predicate = try FetchPredicate("books.@sum.price == 2E38 AND total == 2E38")
        #expect(names(try context.fetch(FetchRequest(entityName: "Author", predicate: predicate))) == ["nines"])
        #expect(try predicate.evaluate(with: author))
    }

    @Test func aDerivedSumBeyondDecimalsRangeFailsTheSave() throws {
        let context = try PersistentContainer(model: Self.model(derived: true), storeURL: nil).viewContext
        try Self.author(context, "huge", Array(repeating: Self.huge, count: 4))
        let error = try #require(throws: ObjectAccessError.self) { try context.save() }
        #expect(error.entity == "Author" && error.key == "total")
        #expect(
            error.description.hasPrefix(
                "Can't set Author.total: it derives 'books.@sum.price', but the sum of decimals overflows: "))
    }

    /// An Integer 64 sum past `Int64.max` does not wrap: the save stops, naming the value.
    @Test func aDerivedIntegerSumPastItsTypeFailsTheSaveInsteadOfWrapping() throws {
        let model = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Shelf") {
                Attribute("name", .string)
                Attribute("pages", .integer64, derived: "books.@sum.pages")
                Relationship("books", to: "Book", inverse: "shelf", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("pages", .integer64)
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
        }
        let store = TemporaryStore()
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let shelf = try context.make("Shelf", "long")
        for index in 0..<2 {
            let book = try context.make("Book", "tome \(index)")
            book["pages"] = Int64.max
            book.setObject(shelf, forKey: "shelf")
        }
        let error = try #require(throws: ObjectAccessError.self) { try context.save() }
        #expect(error.entity == "Shelf" && error.key == "pages")
        #expect(error.description.contains("it derives 'books.@sum.pages', whose value 18446744073709551614 does not fit"), "\(error)")
        #expect(try store.count("Book", model) == 0)

        context.rollback()
        let small = try context.make("Shelf", "short")
        let book = try context.make("Book", "thin")
        book["pages"] = Int64(12)
        book.setObject(small, forKey: "shelf")
        try context.save()
        #expect(small["pages"] as? Int64 == 12)
    }

    @Test func aMigrationDerivesTheSameExactSum() throws {
        let store = TemporaryStore()
        let v1 = Self.model(derived: false), v2 = Self.model(derived: true, version: "2")
        do {
            let context = try PersistentContainer(model: v1, storeURL: store.url).viewContext
            try Self.author(context, "tenths", ["0.1", "0.2"])
            try Self.author(context, "long", ["12345678901234567890.123456789012345678", "0.000000000000000001"])
            try context.save()
        }
        let context = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1]).viewContext
        let authors = try context.fetch(FetchRequest(entityName: "Author", sortDescriptors: [SortKey("name")]))
        #expect(
            authors.map { $0.value(forKey: "total", as: Decimal.self).map(DecimalText.format) }
                == ["12345678901234567890.123456789012345679", "0.3"])
    }

    @Test func aMigrationWhoseDerivedSumOverflowsIsRolledBack() throws {
        let store = TemporaryStore()
        let v1 = Self.model(derived: false), v2 = Self.model(derived: true, version: "2")
        do {
            let context = try PersistentContainer(model: v1, storeURL: store.url).viewContext
            try Self.author(context, "huge", Array(repeating: Self.huge, count: 4))
            try context.save()
        }
        let error = #expect(throws: (any Error).self) {
            try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("(Author.total): it derives 'books.@sum.price', but for Author "), "\(message)")
        #expect(message.contains("the sum of decimals overflows"), "\(message)")
        #expect(message.hasSuffix("the migration was rolled back and the store is as it was"), "\(message)")
        // The store still opens with the old model and keeps its books.
        let context = try PersistentContainer(model: v1, storeURL: store.url).viewContext
        #expect(try context.fetch(FetchRequest(entityName: "Book")).count == 4)
    }

    @Test func anOverflowingSumIsAnErrorInMemoryAndInSQL() throws {
        let context = try PersistentContainer(model: Self.model(derived: false), storeURL: nil).viewContext
        let author = try Self.author(context, "huge", Array(repeating: Self.huge, count: 4))
        try context.save()
        let predicate = try FetchPredicate("books.@sum.price > 0")
        let memory = try #require(throws: FetchPredicateError.self) { try predicate.evaluate(with: author) }
        #expect(memory.kind == .invalidValue)
        #expect(memory.description.contains("books.@sum.price overflows"))
        let sql = #expect(throws: (any Error).self) {
            try context.fetch(FetchRequest(entityName: "Author", predicate: predicate))
        }
        #expect("\(sql.map { "\($0)" } ?? "")".contains("decimal_sum cannot add the value"))
    }
}
