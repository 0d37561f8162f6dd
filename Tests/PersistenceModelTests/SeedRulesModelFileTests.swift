import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// The seeds' rules, read from one model file that uses each of them: a validation predicate
/// with its warning, Binary Data with a minimum and maximum length, an optional to-many with
/// a minimum and maximum count, a descending fetch index, a fetched property and a
/// relationship marked "Index in Spotlight".
@Suite struct SeedRulesModelFileTests {
    // MARK: - Validation predicate with warning text

    @Test func aTitleThatBreaksThePredicateFailsWithTheModelsWarning() throws {
        let container = try SeedRulesModel.container()
        let context = container.viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "bad"
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures.map(\.rule) == [.predicate])
        #expect(error.failures.first?.warning == "A title can't be 'bad'.")
        book["title"] = "good"
        try context.save()
    }

    // MARK: - Binary Data length

    @Test(arguments: [(1, ValidationFailure.Rule.stringTooShort), (5, .stringTooLong)])
    func binaryDataOutsideItsLengthIsRefused(_ length: Int, _ rule: ValidationFailure.Rule) throws {
        let container = try SeedRulesModel.container()
        let context = container.viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["cover"] = Data(repeating: 7, count: length)
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures.map(\.rule) == [rule])
        #expect(error.failures.first?.value == "(\(length) bytes)")
        let bound = length < 2 ? "at least 2" : "at most 4"
        #expect(error.failures.first?.requirement == "must be \(bound) bytes long")
    }

    @Test(arguments: [2, 3, 4])
    func binaryDataWithinItsLengthSaves(_ length: Int) throws {
        let container = try SeedRulesModel.container()
        let context = container.viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["cover"] = Data(repeating: 7, count: length)
        try context.save()
    }

    // MARK: - Optional to-many with a count

    @Test func anOptionalToManyWithAMinimumCountMayBeEmpty() throws {
        let container = try SeedRulesModel.container()
        let context = container.viewContext
        _ = try context.insertObject(forEntityName: "Shelf")
        try context.save()
    }

    @Test func aNonEmptyOptionalToManyMustHoldBetweenItsMinimumAndMaximum() throws {
        let container = try SeedRulesModel.container()
        let context = container.viewContext
        let shelf = try context.insertObject(forEntityName: "Shelf")
        let books = try (0..<4).map { _ in try context.insertObject(forEntityName: "Book") }
        try shelf.setValue([books[0]], forKey: "books")
        let tooFew = try #require(throws: ValidationError.self) { try context.save() }
        #expect(tooFew.failures.map(\.rule) == [.relationshipLacksMinimumCount])
        #expect(tooFew.failures.first?.requirement == "must hold at least 2")
        try shelf.setValue(books, forKey: "books")
        let tooMany = try #require(throws: ValidationError.self) { try context.save() }
        #expect(tooMany.failures.map(\.rule) == [.relationshipExceedsMaximumCount])
        try shelf.setValue(Array(books.prefix(2)), forKey: "books")
        try context.save()
        // Emptied again, it is valid again.
        try shelf.setValue([ManagedObject](), forKey: "books")
        try context.save()
    }

    // MARK: - Index in Spotlight on a relationship

    @Test func aRelationshipKeepsIndexInSpotlightThroughReadingAndWriting() throws {
        let model = try SeedRulesModel.model()
        let books = try #require(model.entity(named: "Shelf")?.relationship(named: "books"))
        #expect(books.isIndexedBySpotlight)
        #expect(model.entity(named: "Book")?.relationship(named: "shelf")?.isIndexedBySpotlight == false)
        #expect(model.xmlContents().contains(#"spotlightIndexingEnabled="YES""#))
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = directory.appendingPathComponent("Copy.xcdatamodel")
        try model.write(to: written)
        let reread = try ManagedObjectModel(contentsOf: written)
        #expect(reread.entity(named: "Shelf")?.relationship(named: "books")?.isIndexedBySpotlight == true)
        #expect(reread.xmlContents() == model.xmlContents())
    }

    @Test func modelDumpShowsASearchableRelationship() throws {
        let url = try ModelFixtures.writeContents(SeedRulesModel.contents)
        defer { ModelFixtures.removeContents(url) }
        let text = try ToolRun(["model", "dump", url.path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("  relationship books: to-many Book, optional, inverse shelf, Nullify, count 2…3, searchable\n"))
        let json = try ToolRun(["model", "dump", url.path, "--json"])
        #expect(json.stdout.contains(#""spotlightIndexingEnabled": true"#))
    }
}
