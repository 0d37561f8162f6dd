import Foundation
import Testing
import Persistence

/// What each merge policy does with an inserted object whose unique values are stored.
@Suite struct MergePolicyUniquenessTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "Book",
                attributes: [
                    AttributeDescription(name: "isbn", type: .string),
                    AttributeDescription(name: "title", type: .string),
                ],
                uniquenessConstraints: [["isbn"]])
        ])
    }

    /// Saves a book with ISBN 1, then inserts another with it under `policy`.
    func insertDuplicate(under policy: MergePolicy) throws -> (store: TemporaryStore, error: (any Error)?) {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
        let context = container.viewContext
        let first = try context.insertObject(forEntityName: "Book")
        first["isbn"] = "1"
        first["title"] = "first"
        try context.save()
        context.mergePolicy = policy
        let second = try context.insertObject(forEntityName: "Book")
        second["isbn"] = "1"
        second["title"] = "second"
        do { try context.save() } catch { return (store, error) }
        return (store, nil)
    }

    @Test(arguments: [MergePolicy.mergeByPropertyObjectTrump, .overwrite])
    func objectTrumpAndOverwriteTakeTheStoredRowOver(policy: MergePolicy) throws {
        let (store, error) = try insertDuplicate(under: policy)
        #expect(error == nil)
        #expect(try store.rows("SELECT isbn, title, _opt FROM Book") == [[.text("1"), .text("second"), .integer(2)]])
    }

    @Test(arguments: [MergePolicy.error, .mergeByPropertyStoreTrump, .rollback])
    func theOtherPoliciesRefuseTheDuplicate(policy: MergePolicy) throws {
        let (store, error) = try insertDuplicate(under: policy)
        #expect(error is ConstraintConflictError)
        #expect(try store.rows("SELECT title FROM Book") == [[.text("first")]])
    }
}
