import Foundation
import PersistenceCoreDataStore
import PersistenceModel
import Testing

/// The metadata Core Data writes in Z_METADATA, made from a model and compared with the one
/// Core Data wrote.
@Suite struct FormatsStoreMetadataTests {
    @Test func theMetadataMadeForTheModelIsTheOneCoreDataWrote() throws {
        let model = try ManagedObjectModel(
            contentsOf: CoreDataFixture.modelURL, version: "SampleModel")
        let stored = try BinaryPropertyList.read(FormatsFixture.metadata)
        #expect(CoreDataStoreMetadata.propertyList(for: model) == stored)
        let written = BinaryPropertyList.write(CoreDataStoreMetadata.propertyList(for: model))
        #expect(try BinaryPropertyList.read(written) == stored)
    }

    @Test func aModelThatStoresDifferentlyIsNamed() throws {
        let stored = try BinaryPropertyList.read(FormatsFixture.metadata)
        let model = try ManagedObjectModel(
            contentsOf: CoreDataFixture.modelURL, version: "SampleModel")
        #expect(CoreDataStoreMetadata.firstDifference(between: stored, and: model) == nil)
        let compiled = try CompiledModel.model(fromModelCache: FormatsFixture.modelCache)
        #expect(CoreDataStoreMetadata.firstDifference(between: stored, and: compiled) == nil)

        let changed = model.copy()
        changed.modifyEntity(named: "Person") {
            $0.attributes.append(AttributeDescription(name: "nickname", type: .string))
        }
        let difference = try #require(
            CoreDataStoreMetadata.firstDifference(between: stored, and: changed))
        #expect(difference.contains("Person"))
        let other = try ManagedObjectModel(
            contentsOf: CoreDataFixture.modelURL, version: "SampleModel2")
        #expect(CoreDataStoreMetadata.firstDifference(between: stored, and: other) != nil)
    }
}
