import Foundation
import Persistence
import PersistenceCodegen
import Testing

/// The generator's output: golden files, determinism, the three Codegen modes, errors, and
/// the `persistence-codegen` executable regenerating when the model changes.
@Suite struct CodeGeneratorTests {
    /// A model with an abstract parent, a module-qualified class name, a keyword-named
    /// attribute, a scalar, a URI, an ordered and an unordered to-many, a relationship to a
    /// Manual/None entity, and all three Codegen settings.
    static let shelves = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Item" representedClassName="Item" isAbstract="YES" syncable="YES" codeGenerationType="class">
                <attribute name="label" attributeType="String"/>
            </entity>
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Shelf" representedClassName="Library.Shelf" parentEntity="Item" syncable="YES" codeGenerationType="class">
                <attribute name="capacity" attributeType="Integer 32" defaultValueString="10" usesScalarValueType="YES"/>
                <attribute name="default" optional="YES" attributeType="String"/>
                <attribute name="price" optional="YES" attributeType="Decimal"/>
                <attribute name="website" attributeType="URI"/>
                <relationship name="volumes" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Volume" inverseName="shelf" inverseEntity="Volume"/>
            </entity>
            <entity name="Volume" representedClassName="Volume" syncable="YES" codeGenerationType="category">
                <attribute name="uuid" optional="YES" attributeType="UUID"/>
                <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note"/>
                <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="volumes" inverseEntity="Shelf"/>
            </entity>
        </model>
        """

    /// Writes `contents` as `<name>.xcdatamodel/contents` in a new temporary directory.
    static func writeModel(_ contents: String, name: String = "Shelves") throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("codegen-\(UUID().uuidString)")
            .appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: directory.appendingPathComponent("contents"))
        return directory
    }

    /// Removes the temporary directory that `writeModel` made for `model`.
    static func removeModel(_ model: URL) {
        try? FileManager.default.removeItem(at: model.deletingLastPathComponent())
    }

    static func generate(_ contents: String) throws -> [GeneratedFile] {
        let model = try writeModel(contents)
        defer { removeModel(model) }
        return try CodeGenerator(contentsOf: model).files()
    }

    // MARK: - Golden output

    /// `Golden/<file>.txt` holds the expected text of each file; after a deliberate change
    /// to the generator, regenerate them with `persistence-codegen` and review the diff.
    @Test func outputMatchesTheGoldenFiles() throws {
        let golden = try #require(Bundle.module.url(forResource: "Golden", withExtension: nil))
        let files = try Self.generate(Self.shelves)
        #expect(
            files.map(\.name) == [
                "Item+Class.swift", "Item+Properties.swift", "Shelf+Class.swift",
                "Shelf+Properties.swift", "Volume+Properties.swift", "Shelves+Model.swift",
            ])
        for file in files {
            let expected = try String(
                contentsOf: golden.appendingPathComponent(file.name + ".txt"), encoding: .utf8)
            #expect(file.contents == expected, "\(file.name) differs from its golden file")
        }
    }

    @Test func outputIsTheSameWhateverTheEntityOrder() throws {
        let url = try Self.writeModel(Self.shelves)
        defer { Self.removeModel(url) }
        let model = try ManagedObjectModel(contentsOf: url)
        let reversed = ManagedObjectModel(entities: model.entities.reversed())
        let first = try CodeGenerator(model: model, modelName: "Shelves").files()
        let second = try CodeGenerator(model: reversed, modelName: "Shelves").files()
        #expect(first == second)
        let single = try CodeGenerator(model: model, modelName: "Shelves").singleFile()
        #expect(single.name == "Shelves+Generated.swift")
        for file in first {
            let body = file.contents.components(separatedBy: "import Persistence\n\n")[1]
            #expect(single.contents.contains("// MARK: - \(file.name)\n\n" + body))
        }
    }

    @Test func manualEntitiesGetNothingAndCategoriesNoClass() throws {
        let text = try Self.generate(Self.shelves).map(\.contents).joined()
        #expect(!text.contains("class Note") && !text.contains("extension Note"))
        #expect(!text.contains("class Volume") && text.contains("extension Volume {"))
        #expect(text.contains("public class Item: ManagedObject {}"))
        #expect(text.contains("public final class Shelf: Item {}"))
        #expect(!text.contains("\"Note\":"))
    }

    @Test func aModelWithoutCodegenGivesNoFiles() throws {
        let manual = Self.shelves.replacingOccurrences(of: #" codeGenerationType="class""#, with: "")
            .replacingOccurrences(of: #" codeGenerationType="category""#, with: "")
        #expect(try Self.generate(manual).isEmpty)
    }

    // MARK: - Errors

    @Test func unknownCodegenSettingIsNamed() throws {
        let model = Self.shelves.replacingOccurrences(
            of: #"codeGenerationType="category""#, with: #"codeGenerationType="struct""#)
        let error = try #require(throws: CodegenError.self) { try Self.generate(model) }
        #expect(
            error.description
                == "Can't generate Volume: its codeGenerationType 'struct' is not 'class', "
                + "'category' or empty (Manual/None)")
    }

    @Test func propertyNamedLikeAManagedObjectMemberIsRefused() throws {
        let model = Self.shelves.replacingOccurrences(
            of: #"<attribute name="label""#, with: #"<attribute name="entity""#)
        let error = try #require(throws: CodegenError.self) { try Self.generate(model) }
        #expect(
            error.description
                == "Can't generate Item.entity: 'entity' is already a member of ManagedObject "
                + "or of every type; rename it in the model")
    }

    @Test func undefinedAttributeTypeIsRefused() throws {
        let model = Self.shelves.replacingOccurrences(
            of: #"attributeType="Integer 32""#, with: #"attributeType="Undefined""#)
        let error = try #require(throws: CodegenError.self) { try Self.generate(model) }
        #expect(error == .unsupportedType(entity: "Shelf", attribute: "capacity", type: "Undefined"))
    }

    @Test func twoEntitiesWithOneClassAreRefused() throws {
        let model = Self.shelves.replacingOccurrences(
            of: #"representedClassName="Volume""#, with: #"representedClassName="Shelf""#)
        let error = try #require(throws: CodegenError.self) { try Self.generate(model) }
        #expect(error == .duplicateClass(name: "Shelf", entities: ["Shelf", "Volume"]))
    }

    // MARK: - Version hashes

    /// Codegen is an Xcode setting, not part of the schema: the test copies of the fixture
    /// models (with codeGenerationType added) hash as the originals, as in Core Data.
    @Test func codegenSettingsDoNotChangeVersionHashes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let fixtures = root.deletingLastPathComponent().appendingPathComponent("Fixtures/models")
        let pairs = [
            ("Models/Moody.xcdatamodel", "objcio/Moody.xcdatamodel"),
            ("Models/SampleModel.xcdatamodeld", "CoreDataPlus/SampleModel.xcdatamodeld"),
        ]
        for (copy, original) in pairs {
            let withCodegen = try ManagedObjectModel(contentsOf: root.appendingPathComponent(copy))
            let without = try ManagedObjectModel(
                contentsOf: fixtures.appendingPathComponent(original))
            #expect(withCodegen.entities.contains { $0.codeGenerationType != nil })
            #expect(withCodegen.entityVersionHashesByName == without.entityVersionHashesByName)
        }
    }
}
