import Foundation

/// Identifies a managed object across contexts: its store, its table, and its row.
///
/// A newly inserted object has a temporary ID until its first save gives it a permanent
/// one, as in Core Data. IDs are equal when they name the same row of the same store (or
/// the same unsaved object).
public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
    /// How the object is identified.
    enum Key: Sendable, Hashable {
        case permanent(Int64)
        case temporary(UInt64)
    }

    /// The object's entity.
    public let entityName: String
    /// The root entity of the object's hierarchy: the table its row is in.
    let rootName: String
    /// The store's identifier.
    let storeIdentifier: String
    let key: Key

    init(entityName: String, rootName: String, storeIdentifier: String, key: Key) {
        self.entityName = entityName
        self.rootName = rootName
        self.storeIdentifier = storeIdentifier
        self.key = key
    }

    /// Whether the ID is temporary: the object has not been saved yet.
    public var isTemporaryID: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// The row's primary key, for a saved object.
    package var primaryKey: Int64? {
        if case .permanent(let pk) = key { return pk }
        return nil
    }

    /// The order in which unsaved objects were inserted (0 for a saved object).
    var insertionNumber: UInt64 {
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
        lhs.key == rhs.key && lhs.rootName == rhs.rootName && lhs.storeIdentifier == rhs.storeIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(rootName)
    }
}
