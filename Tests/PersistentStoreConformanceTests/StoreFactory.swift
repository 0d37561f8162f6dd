import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// One kind of store the conformance suite runs against: how to make one for a model at a
/// fresh location, and what the kind can do (keep its objects across a reopen, open a file
/// the test made).
///
/// The suite sees stores only as `any PersistentStore`; which store type stands behind a
/// factory is said once, in `StoreFactories`.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    /// The kind of store, as test results name it.
    let name: String
    /// Whether a store it makes keeps its objects when closed and opened again, and shares
    /// them with a second store opened at its location (false for a store in memory).
    let keepsObjectsWhenReopened: Bool
    /// Makes a store for `model` at a fresh location, with a context on it.
    let make: @Sendable (ManagedObjectModel) throws -> StoreUnderTest
    /// Opens a store for `model` on a file the test made, or nil for a kind of store that
    /// is not kept in a file.
    let openFile: (@Sendable (ManagedObjectModel, URL) throws -> any PersistentStore)?
    /// The clauses the store is known to break: their tests expect the failure
    /// (`withKnownIssue`) until the store is fixed, and fail once it no longer happens.
    var knownIssues: Set<KnownContractBreak> = []

    var testDescription: String { name }
}

/// A way a store is known to break the contract, named for the clause it breaks.
enum KnownContractBreak: Sendable, Hashable {
    /// A to-one without a destination reads as something other than `.toOneFault(nil)`.
    case emptyToOneIsNotAFault
}

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
