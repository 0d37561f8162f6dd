import Foundation
import PersistenceModel

/// The metadata Core Data keeps in a store's Z_METADATA (a binary property list): what it
/// holds, made for a model, and compared with one.
///
/// The keys, as the fixture store shows them: `NSStoreType` (`"SQLite"`),
/// `NSPersistenceFrameworkVersion` (the writing Core Data's version, 1044 there),
/// `NSStoreModelVersionHashes` (entity name → 32-byte hash, see `CoreDataVersionHash`),
/// `NSStoreModelVersionHashesDigest` (Base64 of SHA-512 over them),
/// `NSStoreModelVersionHashesVersion` (3), `NSStoreModelVersionIdentifiers` (the model's
/// version identifiers) and `_NSAutoVacuumLevel` (`"2"`). The store's UUID is in the
/// `Z_UUID` column beside the property list, not in it. An app's own metadata keys sit in the
/// same dictionary: keep them when writing it back.
package enum CoreDataStoreMetadata {
    /// The `NSPersistenceFrameworkVersion` written for new stores: the one of the Core Data
    /// that wrote the fixture store.
    package static let persistenceFrameworkVersion: Int64 = 1044

    /// The metadata Core Data writes for a new SQLite store of `model`.
    package static func propertyList(for model: ManagedObjectModel) -> PropertyListValue {
        let hashes = CoreDataVersionHash.entityHashes(of: model)
        return .dictionary([
            "NSStoreType": .string("SQLite"),
            "NSPersistenceFrameworkVersion": .integer(persistenceFrameworkVersion),
            "NSStoreModelVersionHashes": .dictionary(hashes.mapValues { .data($0) }),
            "NSStoreModelVersionHashesDigest": .string(
                CoreDataVersionHash.versionHashesDigest(hashes)),
            "NSStoreModelVersionHashesVersion": .integer(3),
            "NSStoreModelVersionIdentifiers": .array(
                model.versionIdentifier.map { [.string($0)] } ?? []),
            "_NSAutoVacuumLevel": .string("2"),
        ])
    }

    /// The entity version hashes stored in `metadata`, by entity name; empty when it has
    /// none.
    package static func versionHashes(in metadata: PropertyListValue) -> [String: Data] {
        guard
            case .dictionary(let entries)? = metadata.dictionaryValue?["NSStoreModelVersionHashes"]
        else {
            return [:]
        }
        return entries.compactMapValues(\.dataValue)
    }

    /// The first way `model` differs from the model whose hashes `metadata` stores, as a
    /// sentence naming the entity; `nil` when Core Data would open the store with the model
    /// (every entity's version hash is equal). Entities are checked in name order.
    package static func firstDifference(
        between metadata: PropertyListValue, and model: ManagedObjectModel
    ) -> String? {
        let stored = versionHashes(in: metadata)
        let computed = CoreDataVersionHash.entityHashes(of: model)
        for name in Set(stored.keys).union(computed.keys).sorted() {
            switch (stored[name], computed[name]) {
            case (nil, _?): return "the model has an entity \(name) that the store does not"
            case (_?, nil): return "the store has an entity \(name) that the model does not"
            case (let a?, let b?) where a != b:
                return
                    "entity \(name) is stored differently in the store than in the model (its version hash differs)"
            default: continue
            }
        }
        return nil
    }
}
