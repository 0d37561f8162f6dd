import Foundation
import PersistenceCoreDataStore
import PersistenceModel
import Testing

/// The model Core Data compiled into the fixture's Z_MODELCACHE, read back and compared with
/// the model file that wrote the store.
@Suite struct FormatsCompiledModelTests {
    @Test func theModelCacheMatchesTheModelFileStructurally() throws {
        let compiled = try CompiledModel.model(fromModelCache: FormatsFixture.modelCache)
        let file = try ManagedObjectModel(
            contentsOf: CoreDataFixture.modelURL, version: "SampleModel")
        #expect(
            compiled.entities.map(\.name) == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
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
        #expect(throws: CoreDataFormatError.self) {
            try CompiledModel.model(fromModelCache: notAModel)
        }
        let notDeflate = Data("bplist00 but not compressed".utf8)
        #expect(throws: CoreDataFormatError.self) {
            try CompiledModel.model(fromModelCache: notDeflate)
        }
        let unknownClass = try KeyedArchiveEncoder.encode(
            .object(
                ArchivedObject(
                    classNames: ["NSManagedObjectModel"], fields: ["NSEntities": .integer(3)])))
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

/// The model written as Core Data archives it in Z_MODELCACHE, and read back.
@Suite struct FormatsCompiledModelWriterTests {
    @Test func aWrittenModelCacheReadsBackAsTheModel() throws {
        let file = try ManagedObjectModel(
            contentsOf: CoreDataFixture.modelURL, version: "SampleModel")
        let cache = try CompiledModel.modelCache(for: file)
        let read = try CompiledModel.model(fromModelCache: cache)
        let coreDatas = try CompiledModel.model(fromModelCache: FormatsFixture.modelCache)
        #expect(read.entities.map(\.name) == coreDatas.entities.map(\.name))
        for entity in coreDatas.entities {
            let ours = try #require(read.entity(named: entity.name))
            #expect(
                FormatsCompiledModelTests.structure(of: ours)
                    == FormatsCompiledModelTests.structure(of: entity))
        }
        #expect(read.versionIdentifier == "1")
        #expect(
            CoreDataVersionHash.entityHashes(of: read)
                == CoreDataVersionHash.entityHashes(of: coreDatas))
    }

    @Test func theArchiveUsesCoreDatasClassesAndKeys() throws {
        let file = try ManagedObjectModel(
            contentsOf: CoreDataFixture.modelURL, version: "SampleModel")
        let archive = try KeyedArchive(data: CompiledModel.archive(of: file))
        guard case .object(let root) = try archive.decodeRoot(),
            case .object(let entities)? = try archive.decodeField("NSEntities", of: root)
        else {
            Issue.record("the root or its entities are not objects")
            return
        }
        #expect(root.classNames == ["NSManagedObjectModel", "NSObject"])
        #expect(entities.classNames.first == "NSKnownKeysDictionary1")
        let fixture = try KeyedArchive(data: Inflate.decompress(FormatsFixture.modelCache))
        let ourClasses = Set(
            archive.objects.compactMap { $0.dictionaryValue?["$classname"]?.stringValue })
        let theirClasses = Set(
            fixture.objects.compactMap { $0.dictionaryValue?["$classname"]?.stringValue })
        #expect(ourClasses == theirClasses)
    }

    @Test func everyAttributeTypeAndRuleSurvivesARoundTrip() throws {
        let types: [AttributeType] = [
            .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date,
            .binaryData,
            .uuid, .uri, .transformable,
        ]
        var attributes = types.map {
            AttributeDescription(
                name: "a\($0.rawValue.replacingOccurrences(of: " ", with: ""))", type: $0)
        }
        attributes[0].minValueString = "-3"
        attributes[0].maxValueString = "30"
        attributes[2].defaultValueString = "7"
        attributes[4].defaultValueString = "2.5"
        attributes[7].defaultValueString = "YES"
        attributes[9].allowsExternalBinaryDataStorage = true
        attributes[11].isOptional = false
        attributes[12].valueTransformerName = "ColorTransformer"
        attributes[12].customClassName = "Color"
        let shelf = EntityDescription(
            name: "Shelf", isAbstract: true, attributes: attributes,
            relationships: [
                RelationshipDescription(
                    name: "books", destination: "Book", inverse: "shelf", deleteRule: .cascade,
                    isToMany: true,
                    isOrdered: true, minCount: 1, maxCount: 9)
            ], versionHashModifier: "v2")
        let book = EntityDescription(
            name: "Book",
            relationships: [
                RelationshipDescription(
                    name: "shelf", destination: "Shelf", inverse: "books", deleteRule: .deny)
            ], uniquenessConstraints: [["shelf"]])
        let model = ManagedObjectModel(entities: [shelf, book])
        let read = try CompiledModel.model(fromModelCache: CompiledModel.modelCache(for: model))
        // The reader gives properties in name order, as Xcode writes them; a class name is
        // always archived, NSManagedObject by default.
        var expected = shelf
        expected.className = "NSManagedObject"
        expected.attributes.sort { $0.name < $1.name }
        #expect(read.entity(named: "Shelf") == expected)
        #expect(read.entity(named: "Book")?.relationships == book.relationships)
        #expect(read.entity(named: "Book")?.uniquenessConstraints == [["shelf"]])
        #expect(
            CoreDataVersionHash.entityHashes(of: read)
                == CoreDataVersionHash.entityHashes(of: model))
    }
}
