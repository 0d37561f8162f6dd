import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Validation predicates and their warnings (Core Data's `validationPredicates` and
/// `validationWarnings`): evaluated at save with the value as `SELF`, and checked by
/// `model validate`.
@Suite struct ValidationPredicateTests {
    // MARK: - Evaluating with the value as SELF

    @Test func selfStandsForTheValue() throws {
        #expect(try FetchPredicate("SELF != 'bad'").evaluate(withValue: .string("good")))
        #expect(try !FetchPredicate("SELF != 'bad'").evaluate(withValue: .string("bad")))
        #expect(try FetchPredicate("SELF BETWEEN {1, 10}").evaluate(withValue: .integer(10)))
        #expect(try FetchPredicate("SELF.length >= 3 AND length <= 5").evaluate(withValue: .string("four")))
        #expect(try !FetchPredicate("length >= 3").evaluate(withValue: .data(Data([1]))))
    }

    @Test func aKeyTheValueHasNotGotIsAnError() throws {
        let error = try #require(throws: FetchPredicateError.self) {
            try FetchPredicate("name == 'x'").evaluate(withValue: .string("x"))
        }
        #expect(error.kind == .unknownKey)
        #expect(error.message == "the value (a string) has no key 'name'")
    }

    // MARK: - At save

    /// A Book whose title must not be "bad" (with the model's warning) and must be at most
    /// 5 UTF-16 units long.
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Book") {
                Attribute("title", .string)
                    .validated(by: "SELF != 'bad'", warning: "A title can't be 'bad'.")
                    .validated(by: "length <= 5", warning: "Titles are short.")
                Attribute("pages", .integer32).validated(by: "SELF > 0", warning: "A book has pages.")
            }
        }
    }

    @Test func aValueThatViolatesAPredicateIsRefusedWithTheWarning() throws {
        let context = try PersistentContainer(model: Self.model(), storeURL: nil).viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "bad"
        book["pages"] = Int32(0)
        let error = try #require(throws: ValidationError.self) { try context.save() }
        let failures = error.failures.sorted { $0.property > $1.property }
        #expect(failures.map(\.rule) == [.predicate, .predicate])
        #expect(failures.map(\.rule.rawValue) == [1550, 1550])
        #expect(failures.map(\.warning) == ["A title can't be 'bad'.", "A book has pages."])
        #expect(failures.map(\.property) == ["title", "pages"])
        #expect(
            failures[0].description
                == #"Book/t1: Book.title "bad" fails its validation predicate SELF != "bad": A title can't be 'bad'. (validation error 1550)"#
        )
    }

    @Test func aValueThatSatisfiesEveryPredicateSaves() throws {
        let context = try PersistentContainer(model: Self.model(), storeURL: nil).viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "good"
        book["pages"] = Int32(12)
        try context.save()
        book["title"] = "longer"
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures.map(\.warning) == ["Titles are short."])
        #expect(error.failures.first?.value == "\"longer\"")
    }

    @Test func aNilValueIsNotTestedAgainstThePredicates() throws {
        let context = try PersistentContainer(model: Self.model(), storeURL: nil).viewContext
        _ = try context.insertObject(forEntityName: "Book")
        try context.save()
    }

    // MARK: - model validate

    @Test func aMalformedPredicateIsAModelError() throws {
        let problems = Self.problems(predicate: "SELF ==== )", type: .string)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("Book.title: has a validation predicate 'SELF ==== )' that does not parse at position") == true)
    }

    @Test func aPredicateOnAMissingKeyIsAModelError() throws {
        #expect(
            Self.problems(predicate: "author.name == 'x'", type: .string) == [
                "Book.title: has a validation predicate 'author.name == 'x'' that cannot be evaluated with its String values as SELF: the value (a string) has no key 'author'"
            ])
    }

    @Test func aPredicateOfTheWrongTypeIsAModelError() throws {
        #expect(
            Self.problems(predicate: "SELF == 'x' OR SELF > 5", type: .string) == [
                "Book.title: has a validation predicate 'SELF == 'x' OR SELF > 5' that cannot be evaluated with its String values as SELF: cannot compare SELF (a string) with 5 (an integer) using '>'"
            ])
        #expect(Self.problems(predicate: "SELF > 5 AND SELF < 10.5", type: .integer16).isEmpty)
        #expect(Self.problems(predicate: "SELF BEGINSWITH 'a'", type: .date).count == 1)
    }

    @Test func modelValidateRefusesABadPredicateNamingEntityPropertyAndPredicate() throws {
        let url = try ModelFixtures.writeContents(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model>
                <entity name="Book">
                    <attribute name="title" optional="YES" attributeType="String">
                        <validationPredicate predicate="SELF ==== )" warning="Broken."/>
                    </attribute>
                    <attribute name="pages" optional="YES" attributeType="Integer 32">
                        <validationPredicate predicate="missing &gt; 3" warning="No such key."/>
                        <validationPredicate predicate="SELF CONTAINS 'x'" warning="Wrong type."/>
                    </attribute>
                </entity>
            </model>
            """)
        defer { ModelFixtures.removeContents(url) }
        let result = try ToolRun(["model", "validate", url.deletingLastPathComponent().path])
        #expect(result.status == 65)
        #expect(result.stdout == "")
        let lines = result.stderrLines
        #expect(lines.count == 3, "\(result)")
        #expect(lines.contains { $0.hasPrefix("error: Book.title: has a validation predicate 'SELF ==== )' that does not parse") })
        #expect(
            lines.contains(
                "error: Book.pages: has a validation predicate 'missing > 3' that cannot be evaluated with its Integer 32 values as SELF: the value (an integer) has no key 'missing'"
            ))
        #expect(
            lines.contains(
                "error: Book.pages: has a validation predicate 'SELF CONTAINS 'x'' that cannot be evaluated with its Integer 32 values as SELF: cannot compare SELF (an integer) with \"x\" (a string) using 'CONTAINS'"
            ))
    }

    /// The model problems of a Book whose title has one validation predicate.
    static func problems(predicate: String, type: AttributeType) -> [String] {
        let model = ManagedObjectModel {
            Entity("Book") { Attribute("title", type).validated(by: predicate, warning: "Bad.") }
        }
        do {
            try model.validate()
            return []
        } catch let error as ModelError {
            return error.problems.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }
}
