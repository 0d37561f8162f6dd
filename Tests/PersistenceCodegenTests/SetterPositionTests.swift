import Foundation
import Persistence
import PersistenceCodegen
import Testing

/// Generated setters name each property's position (`setAttribute(newValue, forKey:
/// "title", at: 5)`); those positions must be the ones the resolved entity gives, including
/// for properties inherited by sub-entities.
@Suite struct SetterPositionTests {
    /// Every `forKey: "name", at: N` in the generated code, by the extended class.
    private func positions(in files: [GeneratedFile]) throws -> [(owner: String, key: String, position: Int)] {
        let pattern = try NSRegularExpression(pattern: #"forKey: "([^"]+)", at: (\d+)\)"#)
        var result: [(String, String, Int)] = []
        for file in files {
            var owner = ""
            for line in file.contents.split(separator: "\n").map(String.init) {
                if line.hasPrefix("extension ") { owner = String(line.dropFirst(10).prefix { $0 != " " }) }
                let range = NSRange(line.startIndex..., in: line)
                guard let match = pattern.firstMatch(in: line, range: range),
                    let key = Range(match.range(at: 1), in: line), let number = Range(match.range(at: 2), in: line),
                    let position = Int(line[number])
                else { continue }
                result.append((owner, String(line[key]), position))
            }
        }
        return result
    }

    @Test func generatedPositionsAreTheResolvedEntitiesPositions() throws {
        let url = try CodeGeneratorTests.writeModel(CodeGeneratorTests.shelves)
        defer { CodeGeneratorTests.removeModel(url) }
        let model = try ManagedObjectModel(contentsOf: url)
        let files = try CodeGenerator(model: model, modelName: "Shelves").files()
        try model.freeze()
        let found = try positions(in: files)
        #expect(found.count == 7)
        // Each class's setters, checked against its entity and every sub-entity.
        let entityOfClass = ["Item": "Item", "Shelf": "Shelf", "Volume": "Volume"]
        for (owner, key, position) in found {
            let entity = try #require(entityOfClass[owner], "no entity for \(owner)")
            for name in [entity] + model.entities.filter({ $0.parentEntityName == entity }).map(\.name) {
                let schema = try #require(model.schema(for: name))
                #expect(schema.propertyIndex[key] == position, "\(name).\(key)")
            }
        }
    }
}
