/// An entity's property positions by name, for the name-based accessors
/// (`value(forKey:)`, `objectIDs(forRelationshipNamed:)`, key paths…).
///
/// A `[String: Int]` hashes the whole name (SipHash, after checking it is normalized) on every
/// lookup. An entity has few properties, so this compares a small signature of the name (its
/// UTF-8 length and first and last bytes) with each property's, and the name itself only
/// where they agree. Names that match only under Unicode canonical equivalence (a precomposed
/// and a decomposed "é") have different bytes, and a name that is no property's is missed by
/// the scan too: both are settled by the dictionary.
package struct PropertyIndex: Sendable {
    private let names: [String]
    private let signatures: [UInt32]
    private let byName: [String: Int]
    /// Whether the scan may answer: the names are few, and no two are equal (a model's never
    /// are; were two equal under canonical equivalence, only the dictionary would know which
    /// one it keeps).
    private let scans: Bool

    /// Entities with more properties than this look names up in the dictionary alone.
    private static var scanLimit: Int { 32 }

    /// The positions of `names` (the last of equal names wins, as in a dictionary built in
    /// order).
    init(names: [String]) {
        self.names = names
        signatures = names.map { name in
            var name = name
            return name.withUTF8(Self.signature(of:))
        }
        var byName: [String: Int] = [:]
        for (position, name) in names.enumerated() { byName[name] = position }
        self.byName = byName
        scans = names.count <= Self.scanLimit && byName.count == names.count
    }

    /// The position of the property named `name`, or nil when the entity has none.
    package subscript(name: String) -> Int? {
        // A native string's bytes are at hand (a small one's copied to the stack); any other
        // goes to the dictionary.
        if scans, let signature = name.utf8.withContiguousStorageIfAvailable(Self.signature(of:)) {
            let found = signatures.withUnsafeBufferPointer { signatures -> Int? in
                for position in signatures.indices where signatures[position] == signature && names[position] == name {
                    return position
                }
                return nil
            }
            if let found { return found }
        }
        return byName[name]
    }

    /// A name's UTF-8 length and its first and last bytes, in one word.
    private static func signature(of utf8: UnsafeBufferPointer<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: utf8.count) << 16 | UInt32(utf8.first ?? 0) << 8 | UInt32(utf8.last ?? 0)
    }
}
