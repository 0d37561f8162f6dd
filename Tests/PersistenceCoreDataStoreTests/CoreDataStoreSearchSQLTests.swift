import Foundation
import Persistence
@testable import PersistenceCoreDataStore
import PersistenceModel
import Testing

/// A search, and a `CONTAINS[cd]`, on a store in Core Data's layout match each row's text in
/// SQL with the connection's `predicate_contains_folded`, which reads the row's bytes in
/// place, rather than `instr` over `predicate_fold`, which made a folded copy of every row's
/// text; and they find what folding finds.
@Suite struct CoreDataStoreSearchSQLTests {
    static func store() throws -> (store: CoreDataStore, remove: () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-search-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Items.sqlite")
        let model = CoreDataStoreSQLFetchTests.model()
        try CoreDataStore.create(model: model, at: url)
        let store = try CoreDataStore(model: model, url: url)
        let context = ManagedObjectContext(coordinator: PersistentStoreCoordinator(store: store), classes: [:])
        for (n, name) in ["Lev Tolstoï", "LEV TOLSTOY", "Die Straße", "plain", "  spaced\tout  "].enumerated() {
            let item = try context.insertObject(forEntityName: "Item")
            try item.setValue(Int64(n), forKey: "n")
            try item.setValue(name, forKey: "name")
        }
        try context.save()
        return (store, { try? store.close(); try? FileManager.default.removeItem(at: folder) })
    }

    /// `kind` "search": a search for "tolstoy"; else a `CONTAINS[cd]` predicate.
    @Test(arguments: ["search", "contains"])
    func aSearchOrContainsCDIsMatchedInPlaceInSQL(_ kind: String) throws {
        let (store, remove) = try Self.store()
        defer { remove() }
        var request = FetchRequest(entityName: "Item")
        if kind == "search" {
            request.searchText = "tolstoy"
        } else {
            request.predicate = try FetchPredicate("name CONTAINS[cd] 'STRASSE'")
        }
        let (table, query, _) = try store.compiled(request)
        let sql = query.selectSQL(columns: store.selectedColumns(table))
        #expect(sql.contains("predicate_contains_folded("), "\(sql)")
        #expect(!sql.contains("predicate_fold("), "\(sql)")
        #expect(query.residual == nil)
    }

    @Test(arguments: [
        ("name CONTAINS[cd] 'STRASSE'", [2]), ("name CONTAINS[cd] 'tolstoi'", [0]), ("name CONTAINS[cd] 'TOLSTOY'", [1]),
        ("name CONTAINS[cd] 'spaced out'", [4]), ("NOT name CONTAINS[cd] 'lev'", [2, 3, 4]),
        ("name CONTAINS[cd] ''", [0, 1, 2, 3, 4]),
    ])
    func containsCDFindsWhatFoldingFinds(_ format: String, _ expected: [Int64]) throws {
        let (store, remove) = try Self.store()
        defer { remove() }
        let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format), sortDescriptors: [SortKey("n")])
        #expect(try CoreDataStoreSQLFetchTests.serials(store, request) == expected)
    }
}
