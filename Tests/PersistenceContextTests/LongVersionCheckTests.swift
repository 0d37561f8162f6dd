import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// A save's version check reads its rows' versions in lists of keys (`KeyList`): a changed
/// row is found wherever it falls among many, past the first list and in a padded last one.
@Suite struct LongVersionCheckTests {
    @Test(arguments: [0, 511, 512, 700])
    func aChangedRowAmongSevenHundredIsFound(changed: Int) throws {
        let store = TemporaryStore()
        let model = OptimisticLockingTests.model()
        do {
            let seed = try PersistentContainer(model: model, storeURL: store.url).viewContext
            for number in 0...700 { try seed.insertObject(forEntityName: "Book")["year"] = Int32(number) }
            try seed.save()
        }
        let byYear = FetchRequest(entityName: "Book", sortDescriptors: [SortKey("year")])
        let mine = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let myBooks = try mine.fetch(byYear)
        let theirs = try PersistentContainer(model: model, storeURL: store.url).viewContext
        try theirs.fetch(byYear)[changed]["title"] = "theirs"
        try theirs.save()

        for book in myBooks { book["notes"] = "mine" }
        #expect(throws: MergeConflictError.self) { try mine.save() }
        let reader = try PersistentContainer(model: model, storeURL: store.url).viewContext
        #expect(try reader.count(for: FetchRequest(entityName: "Book", predicate: FetchPredicate("notes == 'mine'"))) == 0)
    }
}
