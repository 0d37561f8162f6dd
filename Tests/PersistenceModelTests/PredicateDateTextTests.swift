import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// A Date attribute compared with a date typed as ISO 8601 text (`at > "2020-01-01"`):
/// beyond Core Data's syntax, read the same by the parser, the in-memory evaluator and the
/// SQL compiler, and a text that is not a date refused naming it.
@Suite struct PredicateDateTextTests {
    static let instants: [(String, String)] = [
        ("1961 start", "1961-01-01T00:00:00Z"), ("1961 march", "1961-03-15T00:00:00Z"),
        ("2019 end", "2019-12-31T23:59:59Z"), ("2020 start", "2020-01-01T00:00:00Z"),
        ("2020 noon", "2020-01-01T12:00:00Z"), ("2020 evening", "2020-01-01T22:30:00Z"),
        ("2020 feb", "2020-02-29T00:00:00Z"), ("1490", "1490-01-01T00:00:00Z"),
    ]
    static let texts = [
        "2020-01-01", "2020", "2020-01", "1961-03-15", "2020-01-01T12:00:00Z", "2020-01-02T00:30:00+02:00",
        "2020-01-01T12:00:00.5-01:00", "1490-01-01",
    ]
    static let operators = ["==", "!=", "<", "<=", ">", ">="]

    static func make() throws -> (PersistentContainer, ManagedObjectContext) {
        let model = ManagedObjectModel {
            Entity("Event") {
                Attribute("name", .string)
                Attribute("at", .date)
            }
        }
        let container = try PersistentContainer(model: model, storeURL: nil)
        let context = container.viewContext
        for (name, text) in instants {
            let object = try context.insertObject(forEntityName: "Event")
            object["name"] = name
            object["at"] = try DateText.parseISO8601(text)
        }
        let undated = try context.insertObject(forEntityName: "Event")
        undated["name"] = "undated"
        try context.save()
        return (container, context)
    }

    static func names(_ context: ManagedObjectContext, _ predicate: FetchPredicate) throws -> (sql: [String], memory: [String]) {
        func name(_ object: ManagedObject) -> String { object["name"] as? String ?? "nil" }
        let sql = try context.fetch(FetchRequest(entityName: "Event", predicate: predicate)).map(name).sorted()
        let all = try context.fetch(FetchRequest(entityName: "Event"))
        let memory = try all.filter { try predicate.evaluate(with: $0) }.map(name).sorted()
        return (sql, memory)
    }

    @Test func aDateTypedAsTextComparesAsThatDateInSQLAndInMemory() throws {
        let (_, context) = try Self.make()
        for text in Self.texts {
            for op in Self.operators {
                let typed = try FetchPredicate(format: "at \(op) \"\(text)\"", argumentArray: [])
                let (sql, memory) = try Self.names(context, typed)
                #expect(sql == memory, "at \(op) \"\(text)\"")
                // The same as comparing with the Date itself.
                let date = try DateText.parseTypedDate(text, timeZone: .gmt).start
                let real = try FetchPredicate(format: "at \(op) %@", argumentArray: [date])
                #expect(try Self.names(context, real).sql == sql, "at \(op) \"\(text)\" against the Date")
            }
        }
    }

    @Test func theDocumentedExamplesSelectWhatTheySay() throws {
        let (_, context) = try Self.make()
        let after2020 = try FetchPredicate(format: #"at > "2020-01-01""#, argumentArray: [])
        #expect(try Self.names(context, after2020).sql == ["2020 evening", "2020 feb", "2020 noon"])
        // A timestamp with its zone: 2020-01-01T13:00:00+01:00 is noon UTC.
        let noon = try FetchPredicate(format: #"at == "2020-01-01T13:00:00+01:00""#, argumentArray: [])
        #expect(try Self.names(context, noon).memory == ["2020 noon"])
        // Reversed operands and BETWEEN read text as dates too.
        let reversed = try FetchPredicate(format: #""2020-01-01" <= at"#, argumentArray: [])
        #expect(try Self.names(context, reversed).sql == ["2020 evening", "2020 feb", "2020 noon", "2020 start"])
        let between = try FetchPredicate(format: #"at BETWEEN {"1961", "1961-12-31"}"#, argumentArray: [])
        let (sql, memory) = try Self.names(context, between)
        #expect(sql == ["1961 march", "1961 start"] && memory == sql)
    }

    @Test(arguments: ["2020-13-01", "yesterday", "2020-02-30", "2020-01-01T25:00:00Z", "20200101"])
    func textThatIsNotADateIsRefusedNamingIt(_ text: String) throws {
        let (container, context) = try Self.make()
        let predicate = try FetchPredicate(format: "at > \"\(text)\"", argumentArray: [])
        let request = FetchRequest(entityName: "Event", predicate: predicate)
        #expect {
            try container.model.checkFetchRequest(request)
        } throws: { error in
            let message = String(describing: error)
            return message.contains("'\(text)' is not a date") && !message.contains("\n")
        }
        let object = try #require(try context.fetch(FetchRequest(entityName: "Event")).first)
        #expect {
            try predicate.evaluate(with: object)
        } throws: { error in
            String(describing: error).contains("'\(text)' is not a date")
        }
    }

    @Test func aStringAttributeStillComparesAsText() throws {
        let (_, context) = try Self.make()
        // "name" is a string: "2020 noon" > "2020" as text, never read as a date.
        let predicate = try FetchPredicate(format: #"name > "2020""#, argumentArray: [])
        let (sql, memory) = try Self.names(context, predicate)
        #expect(sql == ["2020 evening", "2020 feb", "2020 noon", "2020 start", "undated"] && memory == sql)
    }

    @Test func typedDatesNameTheirPeriod() throws {
        let year = try DateText.parseTypedDate("1961", timeZone: .gmt)
        #expect(year.start == (try DateText.parseISO8601("1961-01-01T00:00:00Z")))
        #expect(year.end == (try DateText.parseISO8601("1962-01-01T00:00:00Z")))
        let december = try DateText.parseTypedDate("1969-12", timeZone: .gmt)
        #expect(december.end == (try DateText.parseISO8601("1970-01-01T00:00:00Z")))
        let day = try DateText.parseTypedDate("2024-02-29", timeZone: .gmt)
        #expect(day.end == (try DateText.parseISO8601("2024-03-01T00:00:00Z")))
        let instant = try DateText.parseTypedDate("2020-01-01T12:00:00+02:00", timeZone: .gmt)
        #expect(instant.start == (try DateText.parseISO8601("2020-01-01T10:00:00Z")) && instant.end == nil)
        #expect(throws: DateTextError(text: "1961-13", format: .typedDate, reason: .noSuchMonth(13))) {
            try DateText.parseTypedDate("1961-13", timeZone: .gmt)
        }
        #expect(
            DateTextError(text: "soon", format: .typedDate, reason: .malformed).description
                == "'soon' is not a date: expected YYYY, YYYY-MM, YYYY-MM-DD or a date and time such as 2020-01-01T12:00:00Z")
    }
}
