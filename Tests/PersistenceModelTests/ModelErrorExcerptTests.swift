import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// A model file's problems are short lines however long the names and values it holds: a
/// 100,000-character attribute type, default value, entity or destination name is quoted
/// in part (it used to come back whole, a 100 KB "line" per problem).
@Suite struct ModelErrorExcerptTests {
    static let long = String(repeating: "x", count: 100_000)

    /// Moody's model with one piece of text replaced by a very long one.
    static let edits: [(String, String)] = [
        (#"attributeType="Date""#, #"attributeType="\#(long)""#),
        (#"defaultValueString="0""#, #"defaultValueString="\#(long)""#),
        (#"name="Mood""#, #"name="\#(long)""#),
        (#"destinationEntity="Mood""#, #"destinationEntity="Q\#(long)""#),
        (#"destinationEntity="Mood""#, #"destinationEntity="Q'\#(long)'x'y'\#(long)""#),
    ]

    @Test(arguments: edits.indices)
    func everyProblemIsAShortLine(index: Int) throws {
        let original = try String(contentsOf: ModelFixtures.moody.appendingPathComponent("contents"), encoding: .utf8)
        let (old, new) = Self.edits[index]
        let range = try #require(original.range(of: old))
        let contents = try ModelFixtures.writeContents(original.replacingCharacters(in: range, with: new))
        defer { try? FileManager.default.removeItem(at: contents.deletingLastPathComponent().deletingLastPathComponent()) }
        var problems: [ModelProblem] = []
        do {
            let model = try ManagedObjectModel(contentsOf: contents)
            try model.validate()
        } catch let error as ModelError {
            problems = error.problems
        }
        #expect(!problems.isEmpty, "edit \(index) was accepted")
        for problem in problems {
            #expect(problem.description.count < 600, "edit \(index): \(problem.description.count) characters")
            #expect(!problem.description.contains("\n"))
        }
    }
}
