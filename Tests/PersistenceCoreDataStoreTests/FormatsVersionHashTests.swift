import Foundation
import PersistenceCoreDataStore
import PersistenceModel
import Testing

/// Core Data's entity version hashes, computed from a model and compared byte for byte with
/// the ones Core Data stored in the fixture's metadata.
@Suite struct FormatsVersionHashTests {
    /// `NSStoreModelVersionHashes` and `NSStoreModelVersionHashesDigest` as Core Data wrote them.
    static func storedHashes() throws -> (hashes: [String: Data], digest: String) {
        let metadata = try #require(
            try BinaryPropertyList.read(FormatsFixture.metadata).dictionaryValue)
        let entries = try #require(metadata["NSStoreModelVersionHashes"]?.dictionaryValue)
        let digest = try #require(metadata["NSStoreModelVersionHashesDigest"]?.stringValue)
        return (try entries.mapValues { try #require($0.dataValue) }, digest)
    }

    @Test func everyEntityHashOfTheModelFileMatchesCoreDatas() throws {
        let stored = try Self.storedHashes()
        let model = try ManagedObjectModel(
            contentsOf: CoreDataFixture.modelURL, version: "SampleModel")
        let computed = CoreDataVersionHash.entityHashes(of: model)
        #expect(computed.count == 4)
        for (name, hash) in stored.hashes {
            #expect(
                computed[name] == hash,
                "\(name): \(computed[name]?.base64EncodedString() ?? "none")")
        }
    }

    @Test func everyEntityHashOfTheCompiledModelMatchesCoreDatas() throws {
        let stored = try Self.storedHashes()
        let model = try CompiledModel.model(fromModelCache: FormatsFixture.modelCache)
        #expect(CoreDataVersionHash.entityHashes(of: model) == stored.hashes)
    }

    @Test func theDigestOfTheHashesMatchesCoreDatas() throws {
        let stored = try Self.storedHashes()
        #expect(CoreDataVersionHash.versionHashesDigest(stored.hashes) == stored.digest)
    }

    @Test func aChangeThatAffectsStorageChangesTheHash() throws {
        let model = try ManagedObjectModel(
            contentsOf: CoreDataFixture.modelURL, version: "SampleModel")
        let before = CoreDataVersionHash.entityHashes(of: model)
        let changed = model.copy()
        changed.modifyEntity(named: "Car") { $0.attributes[0].isOptional.toggle() }
        let after = CoreDataVersionHash.entityHashes(of: changed)
        // Car changes, and with it its sub-entities, whose hashes include their parent's.
        #expect(after["Car"] != before["Car"])
        #expect(after["SportCar"] != before["SportCar"])
        #expect(after["ExpensiveSportCar"] != before["ExpensiveSportCar"])
        #expect(after["Person"] == before["Person"])
        let renamedClass = model.copy()
        renamedClass.modifyEntity(named: "Person") { $0.className = "Human" }
        #expect(CoreDataVersionHash.entityHashes(of: renamedClass) == before)
    }
}
