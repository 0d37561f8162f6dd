import Foundation

extension ManagedObjectModel {
    /// Each entity's version hash (32 bytes of SHA-256), by entity name.
    ///
    /// Two models whose entities have the same hashes store objects the same way, so a store
    /// written with one can be opened with the other; a store records these hashes to tell.
    /// See `EntityDescription.versionHash` and `VersionHash` for what is hashed. When two
    /// entities share a name (an invalid model), the first one's hash is given.
    public var entityVersionHashesByName: [String: Data] {
        var hashes: [String: Data] = [:]
        for entity in entities where hashes[entity.name] == nil {
            hashes[entity.name] = entity.versionHash
        }
        return hashes
    }
}
