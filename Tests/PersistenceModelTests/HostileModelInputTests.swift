import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
@testable import PersistenceModel

/// Model files and predicates built to hurt: deep nesting is refused with a stated limit
/// (never a stack overflow, while parsing or while freeing), and names the store keeps for
/// itself are refused by validation.
@Suite struct HostileModelInputTests {
    private func problems(_ model: ManagedObjectModel) -> [String] {
        ModelValidator(model).errors.map(\.description)
    }

    // MARK: - Depth

    @Test func aModelFileNested50000DeepIsRefusedNamingTheDepth() throws {
        let xml = "<model>\n" + String(repeating: "<entity>", count: 50_000)
            + String(repeating: "</entity>", count: 50_000) + "</model>\n"
        let url = try ModelFixtures.writeContents(xml)
        defer { ModelFixtures.removeContents(url) }
        let error = try #require(throws: ModelError.self) { try ManagedObjectModel(contentsOf: url) }
        #expect(error.file == url.path)
        #expect(error.description.contains("nested more than \(ModelFileReader.maximumDepth) elements deep"), "\(error)")
        let run = try ToolRun(["model", "validate", url.path])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.contains(url.path) && run.stderr.contains("64"), "\(run)")
    }

    @Test func aModelFileAtTheDepthLimitIsRead() throws {
        // <model> plus 63 levels of unknown elements inside an entity: 64 in all.
        let inner = String(repeating: "<x>", count: 62) + String(repeating: "</x>", count: 62)
        let url = try ModelFixtures.writeContents("<model><entity name=\"A\">\(inner)</entity></model>")
        defer { ModelFixtures.removeContents(url) }
        let model = try ManagedObjectModel(contentsOf: url)
        #expect(model.entities.map(\.name) == ["A"])
    }

    @Test(arguments: [
        String(repeating: "(", count: 100_000) + "a == 1" + String(repeating: ")", count: 100_000),
        String(repeating: "NOT ", count: 100_000) + "a == 1",
        String(repeating: "!", count: 100_000) + "a == 1",
        "a IN " + String(repeating: "{", count: 100_000) + "1" + String(repeating: "}", count: 100_000),
    ])
    func deeplyNestedPredicatesAreRefusedAtTheStatedDepth(_ format: String) {
        let error = #expect(throws: FetchPredicateError.self) { try FetchPredicate(format) }
        #expect(error?.description.contains("nesting deeper than \(PredicateParser.maximumDepth) levels") == true)
        #expect(error?.description.contains("\n") == false)
    }

    @Test func predicatesAtTheDepthLimitParseAndFreeWithoutRecursionTrouble() throws {
        let depth = PredicateParser.maximumDepth
        let nested = try FetchPredicate(
            String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth))
        #expect(nested.expression == .comparison(.init(.keyPath(["a"]), .equalTo, .constant(.integer(1)))))
        let negated = try FetchPredicate(String(repeating: "NOT ", count: depth) + "a == 1")
        var node = negated.expression
        var count = 0
        while case .not(let inner) = node {
            count += 1
            node = inner
        }
        #expect(count == depth)
    }

    // MARK: - Names the store reserves

    @Test(arguments: ["_metadata", "_primarykey", "_tombstone", "_search_Book", "_join_Book_tags", "_anything"])
    func entityNamesBeginningWithAnUnderscoreAreTheStores(_ name: String) {
        let found = problems(ManagedObjectModel(entities: [EntityDescription(name: name)]))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("\(name): is a name the store reserves") == true, "\(found)")
    }

    @Test(arguments: ["sqlite_master", "SQLITE_SEQUENCE", "Sqlite_stat1"])
    func entityNamesBeginningWithSQLiteAreSQLites(_ name: String) {
        let found = problems(ManagedObjectModel(entities: [EntityDescription(name: name)]))
        #expect(found == ["\(name): is a name SQLite reserves for its own tables (sqlite_…); choose another name"])
    }

    @Test(arguments: ["_id", "_ID", "_entity", "rowid", "OID", "_rowid_"])
    func propertiesNamedLikeTheStoresColumnsAreRefused(_ name: String) {
        let attribute = problems(ManagedObjectModel(entities: [
            EntityDescription(name: "Book", attributes: [AttributeDescription(name: name, type: .string)])
        ]))
        #expect(attribute.count == 1, "\(attribute)")
        #expect(attribute.first?.hasPrefix("Book.\(name): is a column name the store reserves") == true)
        let relationship = problems(ManagedObjectModel(entities: [
            EntityDescription(name: "Book", relationships: [RelationshipDescription(name: name, destination: "Book")])
        ]))
        #expect(relationship.contains { $0.hasPrefix("Book.\(name): is a column name the store reserves") })
    }

    @Test func entitiesThatDifferOnlyInCaseAreOneTable() {
        let found = problems(ManagedObjectModel(entities: [EntityDescription(name: "Book"), EntityDescription(name: "book")]))
        #expect(found == [
            "entities 'Book' and 'book' differ only in case; SQLite table names ignore case, so they would be one table"
        ])
    }

    @Test func propertiesOfOneTableThatDifferOnlyInCaseAreOneColumn() {
        let own = problems(ManagedObjectModel(entities: [
            EntityDescription(
                name: "Book",
                attributes: [AttributeDescription(name: "title", type: .string), AttributeDescription(name: "Title", type: .string)])
        ]))
        #expect(own.count == 1 && own[0].hasPrefix("Book: has properties 'title' and 'Title' in one table"), "\(own)")
        // Sibling sub-entities share their root's table: a column each, spelled two ways.
        let siblings = problems(ManagedObjectModel(entities: [
            EntityDescription(name: "Item"),
            EntityDescription(name: "Book", parent: "Item", attributes: [AttributeDescription(name: "code", type: .string)]),
            EntityDescription(name: "Disc", parent: "Item", attributes: [AttributeDescription(name: "Code", type: .string)]),
        ]))
        #expect(siblings.count == 1 && siblings[0].hasPrefix("Item: has properties"), "\(siblings)")
        // The same name in two siblings is one shared column, as before.
        let shared = problems(ManagedObjectModel(entities: [
            EntityDescription(name: "Item"),
            EntityDescription(name: "Book", parent: "Item", attributes: [AttributeDescription(name: "code", type: .string)]),
            EntityDescription(name: "Disc", parent: "Item", attributes: [AttributeDescription(name: "code", type: .string)]),
        ]))
        #expect(shared == [])
    }

    @Test func anEntityNamedLikeAnIndexOfTheStoreIsRefused() {
        let found = problems(ManagedObjectModel(entities: [
            EntityDescription(name: "Book", attributes: [AttributeDescription(name: "title", type: .string, isIndexed: true)]),
            EntityDescription(name: "book_title_index"),
        ]))
        #expect(found == [
            "book_title_index: is the name the store gives the index of Book.title ('Book_title_index'); choose another name"
        ])
    }

    @Test func twoJoinTablesUnderOneNameAreRefused() {
        // A.b_c and A_b.c both want the join table "A_b_c".
        let found = problems(ManagedObjectModel(entities: [
            EntityDescription(name: "A", relationships: [RelationshipDescription(name: "b_c", destination: "A", isToMany: true)]),
            EntityDescription(name: "A_b", relationships: [RelationshipDescription(name: "c", destination: "A", isToMany: true)]),
        ]))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("one name, 'A_b_c'") == true, "\(found)")
    }

    @Test func aJoinTableNamedLikeAnEntityInAnotherCaseIsRenamed() throws {
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Book", relationships: [RelationshipDescription(name: "tags", destination: "Tag", isToMany: true)]),
            EntityDescription(name: "Tag"),
            EntityDescription(name: "book_tags"),
        ])
        #expect(problems(model) == [])
        let container = try PersistentContainer(model: model, storeURL: nil)
        let book = try container.viewContext.insertObject(forEntityName: "Book")
        let tag = try container.viewContext.insertObject(forEntityName: "Tag")
        _ = try container.viewContext.insertObject(forEntityName: "book_tags")
        book.addObject(tag, forKey: "tags")
        try container.viewContext.save()
    }

    @Test func theToolRefusesAReservedNameWith65() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Reserved.xcdatamodel")
        try ManagedObjectModel(entities: [
            EntityDescription(name: "_metadata"),
            EntityDescription(name: "Book", attributes: [AttributeDescription(name: "_id", type: .integer64)]),
        ]).write(to: url)
        let run = try ToolRun(["model", "validate", url.path])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderrLines.count == 2, "\(run)")
        #expect(run.stderr.contains("_metadata: is a name the store reserves"))
        #expect(run.stderr.contains("Book._id: is a column name the store reserves"))
        let store = directory.appendingPathComponent("Reserved.sqlite")
        let create = try ToolRun(["store", "create", store.path, "--model", url.path])
        #expect(create.status == 65, "\(create)")
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }
}
