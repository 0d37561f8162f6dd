import Foundation
import Testing
import Persistence

/// `refresh(_:mergeChanges:)` and `refreshAllObjects()`: a context reads what another
/// container on the same store file saved, keeps its own unsaved changes on top, and never
/// presents a row that is gone.
@Suite struct RefreshTests {
    typealias TwoEditors = OptimisticLockingTests.TwoEditors

    @Test func refreshAllObjectsReadsTheOtherContextsSaveIntoUnchangedObjects() throws {
        let editors = try TwoEditors()
        editors.theirBook["title"] = "Dune (theirs)"
        try editors.theirs.viewContext.save()
        #expect(editors.myBook["title"] as? String == "Dune")
        editors.mine.viewContext.refreshAllObjects()
        #expect(editors.myBook.isFault)
        #expect(editors.myBook["title"] as? String == "Dune (theirs)")
        // The fault read the row's version: my edit saves without a conflict.
        editors.myBook["notes"] = "mine"
        try editors.mine.viewContext.save()
        #expect(try editors.stored() == ("Dune (theirs)", 1965, "mine"))
    }

    @Test func refreshAllObjectsKeepsUnsavedChangesOnTopAndTakesTheRowsVersion() throws {
        let editors = try TwoEditors()
        editors.theirBook["year"] = Int32(1966)
        try editors.theirs.viewContext.save()
        editors.myBook["notes"] = "mine"
        editors.mine.viewContext.refreshAllObjects()
        #expect(editors.myBook.hasChanges && editors.myBook["notes"] as? String == "mine")
        #expect(editors.myBook.value(forKey: "year", as: Int32.self) == 1966)
        // Not a conflict any more under .error: the object holds the row's current version.
        try editors.mine.viewContext.save()
        #expect(try editors.stored() == ("Dune", 1966, "mine"))
    }

    @Test func insertedObjectsAreLeftAsTheyAre() throws {
        let editors = try TwoEditors()
        let inserted = try editors.mine.viewContext.insertObject(forEntityName: "Book")
        inserted["title"] = "Emma"
        editors.mine.viewContext.refreshAllObjects()
        #expect(inserted.isInserted && inserted["title"] as? String == "Emma")
        try editors.mine.viewContext.save()
        #expect(try editors.store.rows("SELECT count(*) FROM Book") == [[.integer(2)]])
    }

    @Test(arguments: [false, true])
    func aRefreshedObjectWhoseRowIsGoneLeavesTheContextAndReadsNothing(withChanges: Bool) throws {
        let editors = try TwoEditors()
        editors.theirs.viewContext.delete(editors.theirBook)
        try editors.theirs.viewContext.save()
        if withChanges { editors.myBook["notes"] = "mine" }
        editors.mine.viewContext.refreshAllObjects()
        #expect(editors.myBook["title"] == nil && editors.myBook["notes"] == nil)
        #expect(editors.myBook.managedObjectContext == nil)
        #expect(!editors.mine.viewContext.hasChanges)
        #expect(throws: ObjectAccessError.self) {
            try editors.mine.viewContext.existingObject(with: editors.myBook.objectID)
        }
        try editors.mine.viewContext.save()
    }

    @Test func refreshWithoutMergingDropsUnsavedChanges() throws {
        let editors = try TwoEditors()
        editors.theirBook["year"] = Int32(1966)
        try editors.theirs.viewContext.save()
        editors.myBook["notes"] = "mine"
        editors.mine.viewContext.refresh(editors.myBook, mergeChanges: false)
        #expect(!editors.myBook.hasChanges && !editors.mine.viewContext.hasChanges)
        #expect(editors.myBook["notes"] as? String == "seed")
        #expect(editors.myBook.value(forKey: "year", as: Int32.self) == 1966)
    }

    @Test func aNewFetchSeesTheOtherContextsInsert() throws {
        let editors = try TwoEditors()
        let emma = try editors.theirs.viewContext.insertObject(forEntityName: "Book")
        emma["title"] = "Emma"
        try editors.theirs.viewContext.save()
        let titles = try editors.mine.viewContext.fetch(FetchRequest(entityName: "Book")).compactMap { $0["title"] as? String }
        #expect(titles.sorted() == ["Dune", "Emma"])
    }
}
