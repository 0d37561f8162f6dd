import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import Testing

/// Fetches from a store in Core Data's layout are answered in SQL (the relational core over
/// `CoreDataRelationalLayout`): a windowed or selective fetch reads the rows it returns, not
/// every row of the entity, and only the terms SQL cannot answer exactly are evaluated in
/// memory, on the rows SQL kept.
@Suite struct CoreDataStoreSQLFetchTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("n", .integer64)
                Attribute("count", .integer32)
                Attribute("name", .string, indexedBySpotlight: true)
                Attribute("price", .decimal)
                Relationship("owner", to: "Person", inverse: "items")
                Relationship("tags", to: "Tag", inverse: "items", toMany: true)
            }
            Entity("Person") {
                Attribute("name", .string)
                Relationship("items", to: "Item", inverse: "owner", toMany: true)
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship("items", to: "Item", inverse: "tags", toMany: true)
            }
        }
    }

    /// A Core Data store of ten items (`n` 0 to 9), whose last row's `ZCOUNT` holds bytes, a
    /// value no Integer 32 can be read from: a fetch that reads that row fails. Person `p0`
    /// owns the even items and `p1` the odd ones; the even items have the tag `even`.
    static func storeWithOneUnreadableRow() throws -> (url: URL, remove: () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-sql-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Items.sqlite")
        try CoreDataStore.create(model: model(), at: url)
        let store = try CoreDataStore(model: model(), url: url)
        let context = ManagedObjectContext(coordinator: PersistentStoreCoordinator(store: store), classes: [:])
        var people: [ManagedObject] = []
        for name in ["p0", "p1"] {
            let person = try context.insertObject(forEntityName: "Person")
            try person.setValue(name, forKey: "name")
            people.append(person)
        }
        let even = try context.insertObject(forEntityName: "Tag")
        try even.setValue("even", forKey: "name")
        for n in 0..<10 {
            let item = try context.insertObject(forEntityName: "Item")
            try item.setValue(Int64(n), forKey: "n")
            try item.setValue(Int64(n * 10), forKey: "count")
            try item.setValue("item \(n)", forKey: "name")
            try item.setValue(Decimal(n * 10) + Decimal(string: "0.25")!, forKey: "price")
            item.setObject(people[n % 2], forKey: "owner")
            if n % 2 == 0 { item.addObject(even, forKey: "tags") }
        }
        try context.save()
        try store.close()
        let database = try Database(path: url.path, mode: .mustExist)
        try database.execute("UPDATE ZITEM SET ZCOUNT = X'00' WHERE ZN = 9")
        try database.close()
        return (url, { try? FileManager.default.removeItem(at: folder) })
    }

    static func serials(_ store: CoreDataStore, _ request: FetchRequest) throws -> [Int64] {
        var serials: [Int64] = []
        try store.forEachRow(request) { row in
            if let position = row.schema.propertyIndex["n"], case .value(.integer(let n)) = row.slots[position] {
                serials.append(n)
            }
            return true
        }
        return serials
    }

    @Test func aWindowedFetchReadsOnlyTheRowsOfItsWindow() throws {
        let (url, remove) = try Self.storeWithOneUnreadableRow()
        defer { remove() }
        let store = try CoreDataStore(model: Self.model(), url: url)
        defer { try? store.close() }
        let firstThree = FetchRequest(entityName: "Item", sortDescriptors: [SortKey("n")], fetchLimit: 3)
        #expect(try Self.serials(store, firstThree) == [0, 1, 2])
        var lastButOne = FetchRequest(entityName: "Item", sortDescriptors: [SortKey("n", ascending: false)], fetchLimit: 1)
        lastButOne.fetchOffset = 1
        #expect(try Self.serials(store, lastButOne) == [8])
        // Every row read: the unreadable one is reported, as before.
        #expect(throws: StoreError.self) { try Self.serials(store, FetchRequest(entityName: "Item")) }
    }

    @Test func aSelectiveFetchAndItsCountReadOnlyTheRowsThePredicateKeeps() throws {
        let (url, remove) = try Self.storeWithOneUnreadableRow()
        defer { remove() }
        let store = try CoreDataStore(model: Self.model(), url: url)
        defer { try? store.close() }
        let below = FetchRequest(entityName: "Item", predicate: try FetchPredicate("n < 4 AND name BEGINSWITH[c] 'ITEM'"))
        #expect(try Self.serials(store, below) == [0, 1, 2, 3])
        #expect(try store.count(for: FetchRequest(entityName: "Item")) == 10)
        #expect(try store.count(for: below) == 4)
        // MATCHES is evaluated in memory, on the rows the SQL term kept.
        let matching = FetchRequest(
            entityName: "Item", predicate: try FetchPredicate("n BETWEEN {2, 5} AND name MATCHES '.*[35]'"),
            sortDescriptors: [SortKey("name", ascending: false)])
        #expect(try Self.serials(store, matching) == [5, 3])
        #expect(try store.count(for: matching) == 2)
    }

    /// Key paths through a to-one and over to-manys (`ANY`, `NONE`, `@count`) are answered in
    /// SQL too: the unreadable row, which none of them keeps, is never read.
    @Test func relationshipTermsAreAnsweredInSQL() throws {
        let (url, remove) = try Self.storeWithOneUnreadableRow()
        defer { remove() }
        let store = try CoreDataStore(model: Self.model(), url: url)
        defer { try? store.close() }
        let sorted = [SortKey("n")]
        let cases: [(String, [Int64])] = [
            ("ANY tags.name == 'even'", [0, 2, 4, 6, 8]),
            ("tags.@count == 1", [0, 2, 4, 6, 8]),
            ("owner.name ==[c] 'P0'", [0, 2, 4, 6, 8]),
            ("NONE tags.name == 'even' AND n < 9", [1, 3, 5, 7]),
            ("owner.name == 'p1' AND count <= 50", [1, 3, 5]),
        ]
        for (format, expected) in cases {
            let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format), sortDescriptors: sorted)
            #expect(try Self.serials(store, request) == expected, "\(format)")
            #expect(try store.count(for: request) == expected.count, "\(format)")
        }
        // The people owning an item past 7: the items are read in SQL only.
        let owners = FetchRequest(entityName: "Person", predicate: try FetchPredicate("ANY items.n > 7"))
        #expect(try store.count(for: owners) == 2)
    }

    /// A decimal comparison, decided in memory (a `DECIMAL` column keeps numbers and text),
    /// is first narrowed in SQL to the rows that could pass it; a dictionary result of the
    /// entity's own attributes reads their columns only.
    @Test func decimalTermsAreNarrowedInSQLAndDictionaryResultsReadOnlyTheirColumns() throws {
        let (url, remove) = try Self.storeWithOneUnreadableRow()
        defer { remove() }
        let store = try CoreDataStore(model: Self.model(), url: url)
        defer { try? store.close() }
        let sorted = [SortKey("n")]
        let cases: [(String, [Int64])] = [
            ("price < 20.25", [0, 1]),
            ("price <= 20.25", [0, 1, 2]),
            ("price == 30.25", [3]),
            ("price BETWEEN {10.25, 30.25}", [1, 2, 3]),
            ("40 > price", [0, 1, 2, 3]),
        ]
        for (format, expected) in cases {
            let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format), sortDescriptors: sorted)
            #expect(try Self.serials(store, request) == expected, "\(format)")
        }
        var names: [String] = []
        try store.forEachValues(of: ["name"], FetchRequest(entityName: "Item", sortDescriptors: [SortKey("n", ascending: false)])) {
            slots in
            if case .value(.string(let name)) = slots.first { names.append(name) }
            return true
        }
        #expect(names == (0..<10).reversed().map { "item \($0)" })
    }

    /// A search is narrowed in SQL to the rows holding each of its words (folded as a search
    /// folds), then ranked in memory on those rows only.
    @Test func aSearchReadsOnlyTheRowsHoldingItsWords() throws {
        let (url, remove) = try Self.storeWithOneUnreadableRow()
        defer { remove() }
        let store = try CoreDataStore(model: Self.model(), url: url)
        defer { try? store.close() }
        var request = FetchRequest(entityName: "Item")
        request.searchText = "ITÉM 3"
        #expect(try Self.serials(store, request) == [3])
        #expect(try store.count(for: request) == 1)
        request.searchText = "   "
        #expect(try Self.serials(store, request) == [])
    }
}
