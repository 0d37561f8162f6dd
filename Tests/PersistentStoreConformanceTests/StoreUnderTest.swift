import Foundation
import Persistence
import PersistenceStore

/// A store one test made through a factory, with the context that fills it through the
/// public API; its location is removed when the test lets it go.
///
/// Reopening closes the store and opens the same location again with a new context, as a
/// second run of an app would. Not Sendable: a store and its context belong to one test.
final class StoreUnderTest {
    /// Opens the store at this test's location, with a context on it.
    typealias Opener = () throws -> (store: any PersistentStore, context: ManagedObjectContext)

    /// The store, as every context reaches it.
    private(set) var store: any PersistentStore
    /// A context on the store: tests insert, change, delete and save through it.
    private(set) var context: ManagedObjectContext
    private let open: Opener
    private let removeLocation: () -> Void

    /// Opens the store for the first time.
    ///
    /// - Parameters:
    ///   - open: opens the store at the test's location (creating it the first time).
    ///   - removeLocation: removes whatever the store left at that location.
    init(open: @escaping Opener, removeLocation: @escaping () -> Void) throws {
        self.open = open
        self.removeLocation = removeLocation
        do {
            (store, context) = try open()
        } catch {
            removeLocation()
            throw error
        }
    }

    deinit {
        try? store.close()
        removeLocation()
    }

    /// Closes the store and opens its location again with a new context.
    func reopen() throws {
        try store.close()
        (store, context) = try open()
    }

    /// Opens the store's location a second time, as another process would, with a context
    /// on it; only a store whose location outlives it (`keepsObjectsWhenReopened`) shares
    /// its objects with this second store.
    func openAnotherConnection() throws -> (
        store: any PersistentStore, context: ManagedObjectContext
    ) {
        try open()
    }

    /// Inserts an object of `entity` with the given attribute values.
    @discardableResult
    func insert(_ entity: String, _ values: [String: Any?] = [:]) throws -> ManagedObject {
        let object = try context.insertObject(forEntityName: entity)
        for (key, value) in values { try object.setValue(value, forKey: key) }
        return object
    }
}
