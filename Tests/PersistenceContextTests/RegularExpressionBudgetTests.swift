import Foundation
import PersistenceTestSupport
import Testing

import Persistence
import PersistenceModel

/// A catastrophic regular expression (`(.*){1,32000}b` takes over a second a value in ICU)
/// fails within its step budget, naming the pattern, wherever it is evaluated: the
/// in-memory evaluator, the SQLite store's `regexp` function and validation on save.
@Suite struct RegularExpressionBudgetTests {
    static let hostile = "(.*){1,32000}b"
    static let message = "the pattern \"(.*){1,32000}b\" took too long to match"

    static func model(pattern: String? = nil) -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note",
                attributes: [
                    AttributeDescription(name: "title", type: .string, isOptional: true, regularExpressionString: pattern)
                ])
        ])
    }

    /// A store of a few 40-character titles.
    static func context(_ store: TemporaryStore) throws -> ManagedObjectContext {
        let context = try PersistentContainer(model: model(), storeURL: store.url).viewContext
        for index in 0..<5 {
            try context.insertObject(forEntityName: "Note").setValue(
                "\(index)" + String(repeating: "a", count: 39), forKey: "title")
        }
        try context.save()
        return context
    }

    /// Runs `body`, expecting it to throw within a few seconds with the budget's message.
    static func expectTooSlow(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        let started = Date()
        do {
            try body()
            Issue.record("no error", sourceLocation: sourceLocation)
        } catch {
            #expect("\(error)".contains(message), "\(error)", sourceLocation: sourceLocation)
            #expect("\(error)".contains("simplify it"), sourceLocation: sourceLocation)
        }
        #expect(Date().timeIntervalSince(started) < 5, sourceLocation: sourceLocation)
    }

    @Test func theEvaluatorAbandonsACatastrophicMatch() throws {
        let evaluator = PredicateEvaluator(try FetchPredicate("SELF MATCHES %@", Self.hostile))
        Self.expectTooSlow {
            _ = try evaluator.evaluate(PredicateValueSubject(.string(String(repeating: "a", count: 40))))
        }
        // The error is the predicate's, as an invalid pattern's is.
        #expect(throws: FetchPredicateError.self) {
            _ = try evaluator.evaluate(PredicateValueSubject(.string(String(repeating: "a", count: 40))))
        }
    }

    @Test func anSQLiteFetchFailsWithTheSameMessage() throws {
        let store = TemporaryStore()
        let context = try Self.context(store)
        let request = FetchRequest(entityName: "Note", predicate: try FetchPredicate("title MATCHES %@", Self.hostile))
        Self.expectTooSlow { _ = try context.fetch(request) }
        Self.expectTooSlow { _ = try context.count(for: request) }
        #expect(throws: FetchPredicateError.self) { _ = try context.fetch(request) }
        // The connection is still usable: an ordinary pattern matches afterwards.
        let ordinary = FetchRequest(entityName: "Note", predicate: try FetchPredicate("title MATCHES %@", "[0-9]a+"))
        #expect(try context.fetch(ordinary).count == 5)
        #expect(try store.count("Note", context.model, where: "title MATCHES \"1a*\"") == 1)
    }

    @Test func aFetchOfUnsavedObjectsFailsInMemory() throws {
        let store = TemporaryStore()
        let context = try Self.context(store)
        try context.insertObject(forEntityName: "Note").setValue(String(repeating: "a", count: 40), forKey: "title")
        let request = FetchRequest(entityName: "Note", predicate: try FetchPredicate("title MATCHES %@", Self.hostile))
        Self.expectTooSlow { _ = try context.fetch(request) }
    }

    @Test func aModelsRegularExpressionFailsTheSaveSayingWhy() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: Self.model(pattern: Self.hostile), storeURL: store.url)
        let context = container.viewContext
        try context.insertObject(forEntityName: "Note").setValue(String(repeating: "a", count: 40), forKey: "title")
        Self.expectTooSlow { try context.save() }
        #expect(throws: ValidationError.self) { try context.save() }
        #expect(try store.count("Note", Self.model()) == 0)
    }

    @Test func ordinaryPatternsStillMatch() throws {
        let evaluator = PredicateEvaluator(try FetchPredicate("SELF MATCHES %@", "(a|b)+c"))
        #expect(try evaluator.evaluate(PredicateValueSubject(.string("ababc"))))
        #expect(try !evaluator.evaluate(PredicateValueSubject(.string("ababd"))))
        // A megabyte of text against a pattern that backtracks over all of it: within budget.
        let text = String(repeating: "lorem ipsum dolor ", count: 60_000) + "baz"
        let long = PredicateEvaluator(try FetchPredicate("SELF MATCHES %@", ".*(foo|ipsum).*baz"))
        #expect(try long.evaluate(PredicateValueSubject(.string(text))))
        #expect(try RegularExpressionCache().matches(pattern: "[0-9]+", text: "123"))
    }
}
