import Foundation
import PersistenceCoreDataStore
import PersistenceModel
import Testing

/// The model Core Data compiled into the fixture's Z_MODELCACHE, read back and compared with
/// the model file that wrote the store.
@Suite struct FormatsCompiledModelTests {
    @Test func theModelCacheMatchesTheModelFileStructurally() throws {
        let compiled = try CompiledModel.model(fromModelCache: FormatsFixture.modelCache)
        let file = try ManagedObjectModel(contentsOf: CoreDataFixture.modelURL, version: "SampleModel")
        #expect(compiled.entities.map(\.name) == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        #expect(compiled.versionIdentifier == file.versionIdentifier)
        for expected in file.entities {
            let entity = try #require(compiled.entity(named: expected.name))
            #expect(Self.structure(of: entity) == Self.structure(of: expected))
        }
        #expect(compiled.entities.count == file.entities.count)
    }

    @Test func inheritedPropertiesStayWithTheParent() throws {
        let compiled = try CompiledModel.model(fromModelCache: FormatsFixture.modelCache)
        let sportCar = try #require(compiled.entity(named: "SportCar"))
        #expect(sportCar.parentEntityName == "Car")
        #expect(sportCar.attributes.isEmpty && sportCar.relationships.isEmpty)
        let expensive = try #require(compiled.entity(named: "ExpensiveSportCar"))
        #expect(expensive.parentEntityName == "SportCar")
        #expect(expensive.attributes.map(\.name) == ["isLimitedEdition"])
    }

    @Test func theCompiledModelValidatesAndFreezes() throws {
        let compiled = try CompiledModel.model(fromModelCache: FormatsFixture.modelCache)
        try compiled.freeze()
        #expect(compiled.isFrozen)
    }

    @Test func archivesThatAreNotModelsAreRefused() throws {
        let notAModel = try Deflate.compress(KeyedArchiveEncoder.encode(.string("hello")))
        #expect(throws: CoreDataFormatError.self) { try CompiledModel.model(fromModelCache: notAModel) }
        let notDeflate = Data("bplist00 but not compressed".utf8)
        #expect(throws: CoreDataFormatError.self) { try CompiledModel.model(fromModelCache: notDeflate) }
        let unknownClass = try KeyedArchiveEncoder.encode(
            .object(ArchivedObject(classNames: ["NSManagedObjectModel"], fields: ["NSEntities": .integer(3)])))
        do {
            _ = try CompiledModel.model(fromArchive: unknownClass)
            Issue.record("a model whose entities are a number was read")
        } catch let error as CoreDataFormatError {
            #expect(error.description.contains("NSEntities"), "\(error)")
        }
    }

    /// What Core Data compiles of an entity from a model file: code generation settings
    /// (scalar types, custom class names of transformables, Codegen) stay in Xcode.
    static func structure(of entity: EntityDescription) -> EntityDescription {
        var entity = entity
        entity.codeGenerationType = nil
        entity.attributes = entity.attributes.map { attribute in
            var attribute = attribute
            attribute.usesScalarValueType = false
            attribute.customClassName = nil
            return attribute
        }
        return entity
    }
}
