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
    /// Writes at a URL a database of the store's own kind that is not one of its stores
    /// (another app's), or nil when the kind has no such file.
    var writeForeignDatabase: (@Sendable (URL) throws -> Void)? = nil
    /// Makes a store for `model` at a fresh location with persistent history tracking on,
    /// or nil for a kind of store that keeps no history.
    var makeTrackingHistory: (@Sendable (ManagedObjectModel) throws -> StoreUnderTest)? = nil
    /// Whether the store keeps every digit of a Decimal; false for a store whose decimal
    /// columns keep the nearest Double (Core Data's `DECIMAL` columns, whose NUMERIC
    /// affinity turns the digits into a REAL).
    var keepsEveryDecimalDigit = true

    var testDescription: String { name }
}
