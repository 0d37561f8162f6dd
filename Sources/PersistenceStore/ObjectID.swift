import Foundation
import PersistenceModel

/// Identifies a managed object across contexts: its store, its table, and its row.
///
/// A newly inserted object has a temporary ID until its first save gives it a permanent
/// one, as in Core Data. IDs are equal when they name the same row of the same store (or
/// the same unsaved object).
public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
    /// How the object is identified.
    @usableFromInline package enum Key: Sendable, Hashable {
        case permanent(Int64)
        case temporary(UInt64)
    }

    /// The names an ID carries besides its key: its entity, table and store.
    ///
    /// They live in one shared object, so that an ID is a reference and a key: IDs made by
    /// one read, or by a store for one entity (`PersistentStore.idScope(entityName:rootName:)`),
    /// share one scope. Every object holds its ID and every unloaded to-one holds its
    /// destination's, and a fetch copies two IDs per object: three strings in each ID would
    /// make every copy larger and cost three retains.
    @usableFromInline package final class Scope: Sendable {
        let entityName: String
        let rootName: String
        let storeIdentifier: String

        package init(entityName: String, rootName: String, storeIdentifier: String) {
            self.entityName = entityName
            self.rootName = rootName
            self.storeIdentifier = storeIdentifier
        }
    }

    @usableFromInline package let scope: Scope
    @usableFromInline package let key: Key

    /// The object's entity.
    public var entityName: String { scope.entityName }
    /// The root entity of the object's hierarchy: the table its row is in.
    package var rootName: String { scope.rootName }
    /// The store's identifier.
    package var storeIdentifier: String { scope.storeIdentifier }

    @inlinable
    package init(scope: Scope, key: Key) {
        self.scope = scope
        self.key = key
    }

    /// An ID with a scope of its own; per-row paths use a shared one (`init(scope:key:)`).
    package init(entityName: String, rootName: String, storeIdentifier: String, key: Key) {
        self.init(scope: Scope(entityName: entityName, rootName: rootName, storeIdentifier: storeIdentifier), key: key)
    }

    /// Whether the ID is temporary: the object has not been saved yet.
    public var isTemporaryID: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// The row's primary key, for a saved object.
    @inlinable
    package var primaryKey: Int64? {
        if case .permanent(let pk) = key { return pk }
        return nil
    }

    /// The order in which unsaved objects were inserted (0 for a saved object).
    package var insertionNumber: UInt64 {
        if case .temporary(let n) = key { return n }
        return 0
    }

    /// A URL that names the object: `x-persistence://<store>/<Entity>/p<key>` (or `t<n>`
    /// while temporary).
    public var uriRepresentation: URL {
        let suffix: String
        switch key {
        case .permanent(let pk): suffix = "p\(pk)"
        case .temporary(let n): suffix = "t\(n)"
        }
        var components = URLComponents()
        components.scheme = "x-persistence"
        components.host = storeIdentifier
        components.path = "/\(entityName)/\(suffix)"  // percent-encoded as needed
        return components.url ?? URL(fileURLWithPath: "/\(entityName)/\(suffix)")
    }

    /// `Book/p12`, or `Book/t3` while temporary.
    public var description: String {
        switch key {
        case .permanent(let pk): return "\(entityName)/p\(pk)"
        case .temporary(let n): return "\(entityName)/t\(n)"
        }
    }

    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.key == rhs.key
            && (lhs.scope === rhs.scope
                || (lhs.rootName == rhs.rootName && lhs.storeIdentifier == rhs.storeIdentifier))
    }

    /// Hashes the key alone: equal IDs have equal keys, and hashing the table's name too
    /// cost a string hash per registry lookup for the rare collision between tables.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }
}
