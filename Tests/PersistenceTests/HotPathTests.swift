import Foundation
import Testing

@testable import Persistence

/// The fast paths the benchmarks forced (issue #9) mean what the slow ones meant.
@Suite struct HotPathTests {
    @Test func uuidTextParsesTheCanonicalFormInEitherCase() throws {
        for _ in 0..<200 {
            let uuid = UUID()
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
        }
        #expect(
            UUIDText.parse("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
                == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    }

    @Test(arguments: [
        "", "not a uuid", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G",
        "E621E1F8XC36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0", "{E621E1F8-C36C-495A-93FC-0C247A3E6E}",
    ])
    func uuidTextRefusesWhatFoundationRefuses(_ text: String) {
        #expect(UUIDText.parse(text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }

    @Test func sqlIdentifierQuotesAndDoublesEmbeddedQuotes() {
        #expect(sqlIdentifier("title") == "\"title\"")
        #expect(sqlIdentifier("a\"b") == "\"a\"\"b\"")
        #expect(sqlIdentifier("") == "\"\"")
    }

    @Test func twoNewObjectsWithOneUniqueValueConflictBeforeTheStoreIsTouched() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        try context.insertObject(forEntityName: "Item")["code"] = "x"
        try context.insertObject(forEntityName: "Item")["code"] = "y"
        try context.insertObject(forEntityName: "Item")["code"] = "x"
        let error = try #require(throws: ConstraintConflictError.self) { try context.save() }
        #expect(error.keys == ["code"])
        #expect(error.values == ["\"x\""])
        #expect(try store.rows("SELECT count(*) FROM Item") == [[.integer(0)]])
    }

    @Test func distinctUniqueValuesSaveTogether() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        for code in ["x", "y", "X", "x "] { try context.insertObject(forEntityName: "Item")["code"] = code }
        try context.save()
        #expect(try store.rows("SELECT count(*) FROM Item") == [[.integer(4)]])
    }
}
