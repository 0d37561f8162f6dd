import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceModel
import PersistenceSQLite
import Testing

/// A store made in Core Data's layout has the indexes Core Data makes for the model's own
/// (an indexed attribute, a fetch index, a compound index), named as Core Data names them,
/// so that a fetch sorted by an indexed attribute walks its index instead of sorting the table.
@Suite struct CoreDataStoreIndexTests {
    @Test func aNewStoreIndexesWhatTheModelIndexes() throws {
        let model = ManagedObjectModel {
            Entity("Item") {
                Attribute("title", .string, indexed: true)
                Attribute("maker", .string)
                Attribute("plate", .string)
                Attribute("added", .date)
                FetchIndex("byAdded", "added")
                CompoundIndex("maker", "plate")
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Items.sqlite")
        try CoreDataStore.create(model: model, at: url)
        let database = try Database(path: url.path, mode: .readOnly)
        defer { try? database.close() }
        let indexes = try database.query(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'Z!_Item!_%' ESCAPE '!' ORDER BY name")
        #expect(
            indexes.map { "\($0[0].stringValue ?? "") \($0[1].stringValue ?? "")" } == [
                #"Z_Item_byAdded CREATE INDEX "Z_Item_byAdded" ON ZITEM (ZADDED COLLATE BINARY ASC)"#,
                #"Z_Item_maker_plate CREATE INDEX "Z_Item_maker_plate" ON ZITEM (ZMAKER COLLATE BINARY ASC, ZPLATE COLLATE BINARY ASC)"#,
                #"Z_Item_title CREATE INDEX "Z_Item_title" ON ZITEM (ZTITLE COLLATE BINARY ASC)"#,
            ])
        let plan = try database.query("EXPLAIN QUERY PLAN SELECT Z_PK FROM ZITEM ORDER BY ZTITLE DESC")
            .map { $0.last?.stringValue ?? "" }.joined(separator: "; ")
        #expect(plan.contains("Z_Item_title") && !plan.contains("TEMP B-TREE"), "\(plan)")
        // The store opens, and a sorted fetch answers.
        let store = try CoreDataStore(model: model, url: url)
        #expect(try store.count(for: FetchRequest(entityName: "Item", sortDescriptors: [SortKey("title")])) == 0)
        try store.close()
    }
}
