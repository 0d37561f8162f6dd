import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import Testing

/// A fetch from a store in Core Data's layout hands its rows over as the statement steps to
/// them (memory holds one row, not the result): a caller that stops early reads no further,
/// a residual term and a window are applied as rows pass, and the rows are the same, in the
/// same order, as those a fetch kept whole gives (its IDs, its count, a dictionary result).
@Suite struct CoreDataStoreStreamingFetchTests {
    typealias Fixture = CoreDataStoreSQLFetchTests

    @Test func aCallerThatStopsEarlyReadsNoFurtherRow() throws {
        let (url, remove) = try Fixture.storeWithOneUnreadableRow()
        defer { remove() }
        let store = try CoreDataStore(model: Fixture.model(), url: url)
        defer { try? store.close() }
        // No limit: the row n = 9, which cannot be read, comes last; stopping at the first
        // row never reaches it.
        var seen: [Int64] = []
        try store.forEachRow(FetchRequest(entityName: "Item", sortDescriptors: [SortKey("n")])) { row in
            if let position = row.schema.propertyIndex["n"], case .value(.integer(let n)) = row.slots[position] { seen.append(n) }
            return seen.count < 2
        }
        #expect(seen == [0, 1])
        // A residual term (MATCHES is evaluated in memory) with a window, also stopped early.
        var matched: [Int64] = []
        var request = FetchRequest(entityName: "Item", predicate: try FetchPredicate("name MATCHES 'item [0-8]'"))
        request.sortDescriptors = [SortKey("n")]
        request.fetchOffset = 1
        try store.forEachRow(request) { row in
            if let position = row.schema.propertyIndex["n"], case .value(.integer(let n)) = row.slots[position] { matched.append(n) }
            return matched.count < 3
        }
        #expect(matched == [1, 2, 3])
    }

    @Test func streamedRowsAreThoseOfTheIDsCountAndDictionaryResult() throws {
        let (url, remove) = try Fixture.storeWithOneUnreadableRow()
        defer { remove() }
        // The unreadable row out of the way: every request below reads every row.
        let database = try Database(path: url.path, mode: .mustExist)
        try database.execute("UPDATE ZITEM SET ZCOUNT = 90 WHERE ZN = 9")
        try database.close()
        let store = try CoreDataStore(model: Fixture.model(), url: url)
        defer { try? store.close() }
        var requests: [FetchRequest] = [
            FetchRequest(entityName: "Item"),
            FetchRequest(entityName: "Item", sortDescriptors: [SortKey("name", ascending: false)]),
            // Decimals are compared and sorted in memory.
            FetchRequest(entityName: "Item", predicate: try FetchPredicate("price > 20.3"), sortDescriptors: [SortKey("price")]),
            FetchRequest(entityName: "Item", predicate: try FetchPredicate("owner.name == 'p1' AND count >= 30")),
            FetchRequest(entityName: "Item", predicate: try FetchPredicate("ANY tags.name == 'even'")),
        ]
        var windowed = FetchRequest(
            entityName: "Item", predicate: try FetchPredicate("name MATCHES 'item [1-8]'"), sortDescriptors: [SortKey("price")])
        windowed.fetchOffset = 2
        windowed.fetchLimit = 3
        requests.append(windowed)
        var searched = FetchRequest(entityName: "Item")
        searched.searchText = "item"
        searched.fetchLimit = 4
        requests.append(searched)
        for request in requests {
            var streamed: [ObjectID] = []
            var counts: [Int64] = []
            try store.forEachRow(request) { row in
                streamed.append(ObjectID(scope: row.idScope, key: .permanent(row.primaryKey)))
                if let position = row.schema.propertyIndex["count"], case .value(.integer(let n)) = row.slots[position] {
                    counts.append(n)
                }
                return true
            }
            #expect(!streamed.isEmpty, "\(request)")
            #expect(try store.objectIDs(for: request) == streamed, "\(request)")
            #expect(try store.count(for: request) == streamed.count, "\(request)")
            var values: [Int64] = []
            try store.forEachValues(of: ["count"], request) { slots in
                if case .value(.integer(let n)) = slots[0] { values.append(n) }
                return true
            }
            #expect(values == counts, "\(request)")
        }
    }
}
