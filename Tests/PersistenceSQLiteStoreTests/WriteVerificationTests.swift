import Foundation
import PersistenceTestSupport
import Persistence
import PersistenceSQLite
import Testing

/// A connection's first write checks the whole file beside itself (`PRAGMA quick_check` on a
/// connection and thread of its own) and commits nothing onto a damaged file: whether the
/// write's own statements read the damaged page or not, the error says the store is damaged,
/// and the file stays byte for byte as it was.
@Suite struct WriteVerificationTests {
    /// A store of `count` items, closed, with the middle one of the leaf pages of `tree` (the
    /// item table, or one of its indexes) overwritten in the middle; returns the store and
    /// the damaged file's bytes.
    private static func damagedStore(count: Int, tree: String) throws -> (TemporaryStore, Data) {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
            for n in 0..<count {
                let item = try container.viewContext.insertObject(forEntityName: "Item")
                item["code"] = "item \(n) " + String(repeating: "x", count: 40)
                item["i64"] = Int64(n)
            }
            try container.viewContext.save()
        }
        // Folded into the main file, so that the damage is where every reader looks.
        try store.file.write("PRAGMA wal_checkpoint(TRUNCATE)")
        let leaves = try store.file.rows(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", [.text(tree)]
        ).compactMap { $0.first?.int64Value }
        try #require(leaves.count >= 3)
        let pageSize = try #require(try store.file.scalar("PRAGMA page_size").int64Value)
        let handle = try FileHandle(forUpdating: store.url)
        try handle.seek(toOffset: UInt64((leaves[leaves.count / 2] - 1) * pageSize + 2000))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
        return (store, try Data(contentsOf: store.url))
    }

    private static func expectDamageRefused(_ error: any Error) {
        let message = "\(error)"
        #expect(message.contains("the store is damaged") && message.contains("nothing was written"), "\(message)")
    }

    @Test func aWriteAwayFromTheDamageIsRefused() throws {
        let (store, damaged) = try Self.damagedStore(count: 600, tree: "Item")
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let item = try container.viewContext.insertObject(forEntityName: "Item")
        item["code"] = "new"
        #expect { try container.viewContext.save() } throws: { error in
            Self.expectDamageRefused(error)
            return true
        }
        #expect(try Data(contentsOf: store.url) == damaged)
    }

    @Test func aWriteThroughTheDamageIsRefusedAsDamage() throws {
        // The damage is in the index of the unique `code`, which a fetch of every item (a
        // scan of the table) never reads and deleting every item must change.
        let (store, damaged) = try Self.damagedStore(count: 600, tree: "Item_unique_code")
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let items = try container.viewContext.fetch(FetchRequest(entityName: "Item"))
        #expect(items.count == 600)
        container.viewContext.delete(items)
        #expect { try container.viewContext.save() } throws: { error in
            Self.expectDamageRefused(error)
            return true
        }
        #expect(try Data(contentsOf: store.url) == damaged)
    }

    @Test func aHealthyStoreTakesEveryWrite() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        for n in 0..<3 {
            let item = try container.viewContext.insertObject(forEntityName: "Item")
            item["code"] = "item \(n)"
            try container.viewContext.save()
        }
        #expect(try store.count("Item", everyTypeModel()) == 3)
    }
}
