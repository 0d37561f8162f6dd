import Foundation

/// The bytes a version hash is computed over, and the hash itself.
///
/// A version hash is the SHA-256 digest (32 bytes) of a record that holds exactly the values
/// that affect how objects are stored. Two models whose entities have equal hashes can share
/// a store; any change to those values changes the hash. The record is stable across runs,
/// machines and Swift versions:
///
/// - A record is a sequence of **fields**. Each field is its length as a 4-byte big-endian
///   unsigned integer, followed by that many bytes.
/// - A **string** field holds the string's UTF-8 bytes. An absent optional string is the
///   length `0xFFFFFFFF` with no bytes, so that it differs from the empty string.
/// - A **Boolean** field holds one byte: `0x01` for true, `0x00` for false.
/// - A **count** field holds 8 bytes: the count as a big-endian unsigned integer.
/// - A **digest** field holds another hash's 32 bytes.
/// - The first field is the record's tag, a string naming its kind and layout version.
///
/// An attribute's record: `"attribute/1"`, name, isOptional, isTransient, isDerived, the
/// derivation expression (normalised by `Derivation`'s `description` when it parses, as
/// written otherwise; absent when not derived), the type as Xcode spells it
/// (`"Integer 16"`), versionHashModifier.
///
/// A relationship's record: `"relationship/1"`, name, isOptional, isTransient, the
/// destination entity's name, isToMany, isOrdered, versionHashModifier.
///
/// An entity's record: `"entity/1"`, name, parent entity name, isAbstract, the count of its
/// own properties (attributes and relationships), their hashes as digests sorted by their
/// bytes, the count of its uniqueness constraints, then each constraint as the count of its
/// names followed by the names, the names of each constraint sorted and the constraints
/// sorted (both by UTF-8 bytes), and last its versionHashModifier.
///
/// Not hashed: user info, renaming identifiers, class names, indexes, defaults, validation
/// rules, inverses, delete rules, the order of entities, properties or constraint names, and
/// the whitespace of a model file.
package struct VersionHash {
    private var bytes = Data()

    /// Starts a record with its tag field.
    package init(tag: String) {
        append(tag)
    }

    /// Appends a string field, or the absent marker for `nil`.
    package mutating func append(_ string: String?) {
        guard let string else {
            bytes.append(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF])
            return
        }
        appendField(Data(string.utf8))
    }

    /// Appends a Boolean field.
    package mutating func append(_ flag: Bool) {
        appendField(Data([flag ? 1 : 0]))
    }

    /// Appends a count field.
    package mutating func append(count: Int) {
        let value = UInt64(max(count, 0))
        appendField(Data((0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }))
    }

    /// Appends a digest field.
    package mutating func append(digest: Data) {
        appendField(digest)
    }

    /// The SHA-256 digest of the record so far: 32 bytes.
    package var digest: Data {
        Data(SHA256.hash(bytes))
    }

    /// The record's bytes, for tests and debugging.
    package var record: Data { bytes }

    /// A digest as lowercase hexadecimal.
    package static func hex(_ digest: Data) -> String {
        digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    private mutating func appendField(_ data: Data) {
        let length = UInt32(truncatingIfNeeded: data.count)
        bytes.append(
            contentsOf: (0..<4).reversed().map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) })
        bytes.append(data)
    }

    /// Whether `a` sorts before `b` by UTF-8 bytes, the order the records use.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

extension AttributeDescription {
    /// The attribute's version hash: 32 bytes of SHA-256 over the values that affect how it
    /// is stored (see `VersionHash` for the exact record).
    public var versionHash: Data {
        var hash = VersionHash(tag: "attribute/1")
        hash.append(name)
        hash.append(isOptional)
        hash.append(isTransient)
        hash.append(isDerived)
        hash.append(derivationExpression.map { (try? Derivation(parsing: $0))?.description ?? $0 })
        hash.append(type.rawValue)
        hash.append(versionHashModifier)
        return hash.digest
    }
}

extension RelationshipDescription {
    /// The relationship's version hash: 32 bytes of SHA-256 over the values that affect how
    /// it is stored (see `VersionHash` for the exact record).
    public var versionHash: Data {
        var hash = VersionHash(tag: "relationship/1")
        hash.append(name)
        hash.append(isOptional)
        hash.append(isTransient)
        hash.append(destinationEntityName)
        hash.append(isToMany)
        hash.append(isOrdered)
        hash.append(versionHashModifier)
        return hash.digest
    }
}

extension EntityDescription {
    /// The entity's version hash: 32 bytes of SHA-256 over its name, parent, abstractness,
    /// the hashes of its own properties, its uniqueness constraints and its modifier (see
    /// `VersionHash` for the exact record). The order of properties and constraints does not
    /// matter.
    public var versionHash: Data {
        var hash = VersionHash(tag: "entity/1")
        hash.append(name)
        hash.append(parentEntityName)
        hash.append(isAbstract)
        let propertyHashes = (attributes.map(\.versionHash) + relationships.map(\.versionHash))
            .sorted { $0.lexicographicallyPrecedes($1) }
        hash.append(count: propertyHashes.count)
        for digest in propertyHashes { hash.append(digest: digest) }
        let constraints = uniquenessConstraints.map { $0.sorted(by: VersionHash.precedes) }
            .sorted { $0.lexicographicallyPrecedes($1, by: VersionHash.precedes) }
        hash.append(count: constraints.count)
        for constraint in constraints {
            hash.append(count: constraint.count)
            for name in constraint { hash.append(name) }
        }
        hash.append(versionHashModifier)
        return hash.digest
    }
}
