import Foundation
import PersistenceModel

/// Core Data's own version hashes (`NSEntityDescription.versionHash`), reproduced from a
/// model: the 32-byte values a store keeps in its metadata under `NSStoreModelVersionHashes`
/// and that Core Data compares to decide whether a model can open the store.
///
/// Core Data does not document them. These are SHA-256 digests of (checked against every
/// entity of the fixture store Core Data wrote, byte for byte):
/// - a **property**: its name (UTF-8), then 2 bytes little-endian of flags (1 optional,
///   2 transient, 4 read-only), then its version hash modifier (UTF-8) when it has one;
/// - an **attribute**: the property's digest, then its `NSAttributeType` (100 for Integer
///   16 … 1800 for Transformable) as 4 bytes little-endian, then a byte 1 if it allows
///   external binary storage, then a byte 1 if it preserves its value after deletion;
/// - a **relationship**: the property's digest, the destination entity's name, the
///   inverse relationship's name (left out when the relationship is its own inverse),
///   `maxCount` and `minCount` as 4 bytes little-endian each (a to-one has `maxCount` 1), and
///   2 bytes `01 00` when it is ordered;
/// - an **entity**: its name, a byte 1 or 0 for abstract, the superentity's hash when it has
///   one, the hashes of all its non-transient attributes and relationships — inherited ones
///   included — in the order of their names, its version hash modifier, and last each
///   uniqueness constraint's names joined by `.`, the constraints in sorted order.
///
/// The store's `NSStoreModelVersionHashesDigest` is the Base64 text of SHA-512 over each
/// entity's name followed by its hash, the entities in the order of their names.
///
/// Names are compared as Foundation's `compare:` does, by UTF-16 code units. Not covered
/// (absent from the fixtures, so not checked): derived and composite attributes, whose
/// hashes may include more.
package enum CoreDataVersionHash {
    /// The version hash of every entity of `model`, by entity name, as Core Data stores them
    /// in `NSStoreModelVersionHashes`.
    package static func entityHashes(of model: ManagedObjectModel) -> [String: Data] {
        var hashes: [String: Data] = [:]
        for entity in model.entities where hashes[entity.name] == nil {
            hashes[entity.name] = entityHash(entity, in: model)
        }
        return hashes
    }

    /// The version hash of `entity`, which belongs to `model` (its superentities are looked
    /// up there).
    package static func entityHash(_ entity: EntityDescription, in model: ManagedObjectModel) -> Data
    {
        entityHash(entity, in: model, visited: [])
    }

    /// Core Data's `NSStoreModelVersionHashesDigest` for a set of entity hashes: Base64 of
    /// SHA-512 over each name and hash in name order.
    package static func versionHashesDigest(_ hashes: [String: Data]) -> String {
        var bytes: [UInt8] = []
        for name in hashes.keys.sorted(by: precedes) {
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: hashes[name] ?? Data())
        }
        return Data(SHA512.hash(bytes)).base64EncodedString()
    }

    /// The version hash of an attribute.
    package static func attributeHash(_ attribute: AttributeDescription) -> Data {
        var hasher = SHA256()
        hasher.update(
            propertyHash(
                name: attribute.name, isOptional: attribute.isOptional,
                isTransient: attribute.isTransient,
                modifier: attribute.versionHashModifier))
        hasher.update(
            littleEndian(UInt32(CompiledModel.attributeTypeCode(attribute.type)), bytes: 4))
        if attribute.allowsExternalBinaryDataStorage { hasher.update([1]) }
        if attribute.preservesValueInHistoryOnDeletion { hasher.update([1]) }
        return Data(hasher.finalize())
    }

    /// The version hash of a relationship declared by the entity named `entityName`.
    package static func relationshipHash(
        _ relationship: RelationshipDescription, declaredBy entityName: String
    ) -> Data {
        var hasher = SHA256()
        hasher.update(
            propertyHash(
                name: relationship.name, isOptional: relationship.isOptional,
                isTransient: relationship.isTransient,
                modifier: relationship.versionHashModifier))
        hasher.update(relationship.destinationEntityName.utf8)
        let isOwnInverse =
            relationship.inverseName == relationship.name
            && relationship.destinationEntityName == entityName
        if let inverse = relationship.inverseName, !isOwnInverse { hasher.update(inverse.utf8) }
        let maxCount = relationship.isToMany ? relationship.maxCount : 1
        hasher.update(littleEndian(UInt32(clamping: max(maxCount, 0)), bytes: 4))
        hasher.update(littleEndian(UInt32(clamping: max(relationship.minCount, 0)), bytes: 4))
        if relationship.isOrdered { hasher.update([1, 0]) }
        return Data(hasher.finalize())
    }

    // MARK: - Internals

    private static func entityHash(
        _ entity: EntityDescription, in model: ManagedObjectModel, visited: Set<String>
    )
        -> Data
    {
        var hasher = SHA256()
        hasher.update(entity.name.utf8)
        hasher.update([entity.isAbstract ? 1 : 0])
        var properties: [(name: String, hash: Data)] = []
        var ancestors: [EntityDescription] = []
        var seen = visited.union([entity.name])
        var parentName = entity.parentEntityName
        while let name = parentName, !seen.contains(name), let parent = model.entity(named: name) {
            ancestors.append(parent)
            seen.insert(name)
            parentName = parent.parentEntityName
        }
        if let parent = ancestors.first {
            hasher.update(entityHash(parent, in: model, visited: visited.union([entity.name])))
        }
        for declarer in [entity] + ancestors {
            for attribute in declarer.attributes where !attribute.isTransient {
                properties.append((attribute.name, attributeHash(attribute)))
            }
            for relationship in declarer.relationships where !relationship.isTransient {
                properties.append(
                    (relationship.name, relationshipHash(relationship, declaredBy: declarer.name)))
            }
        }
        var names: Set<String> = []
        for property in properties.sorted(by: { precedes($0.name, $1.name) })
        where names.insert(property.name).inserted {
            hasher.update(property.hash)
        }
        if let modifier = entity.versionHashModifier { hasher.update(modifier.utf8) }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }.sorted(
            by: precedes)
        for constraint in constraints where !constraint.isEmpty { hasher.update(constraint.utf8) }
        return Data(hasher.finalize())
    }

    private static func propertyHash(
        name: String, isOptional: Bool, isTransient: Bool, modifier: String?
    ) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(name.utf8)
        hasher.update([(isOptional ? 1 : 0) | (isTransient ? 2 : 0), 0])
        if let modifier { hasher.update(modifier.utf8) }
        return hasher.finalize()
    }

    private static func littleEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (UInt32($0) * 8)) }
    }

    /// Foundation's `compare:` order for names: UTF-16 code units.
    private static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf16.lexicographicallyPrecedes(b.utf16)
    }
}
