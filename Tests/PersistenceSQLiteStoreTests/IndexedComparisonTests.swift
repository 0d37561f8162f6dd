import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
import PersistenceSQLite
@testable import PersistenceSQLiteStore

/// A comparison outside any `NOT` compiles to SQL an index can answer (`code = ?`,
/// `code IN (…)`), so a fetch by a unique or indexed value is a search, not a scan of the
/// table; under a `NOT` it keeps the form that makes a NULL operand false, as the evaluator
/// does. (Answers are checked against the evaluator by the differential fuzz tests.)
@Suite struct IndexedComparisonTests {
    /// SQLite's plan for the rows of `Item` matching `predicate`, and the condition compiled.
    private func plan(_ predicate: String, _ arguments: Any...) throws -> (plan: String, sql: String) {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        for code in ["a", "b", "c"] {
            let item = try container.viewContext.insertObject(forEntityName: "Item")
            item["code"] = code
        }
        try container.viewContext.save()
        var compiler = PredicateSQLCompiler(
            fetch: try FetchCompiler(schema: StoreSchema(model: container.model), entityName: "Item"))
        let condition = try compiler.condition(for: try FetchPredicate(format: predicate, argumentArray: arguments).expression)
        let database = try Database(path: store.url.path, mode: .readOnly)
        let rows = try database.query(
            "EXPLAIN QUERY PLAN SELECT \"_id\" FROM \"Item\" WHERE \(condition)", compiler.arguments)
        return (rows.compactMap { $0.last?.textValue }.joined(separator: "; "), condition)
    }

    @Test func anEqualityIsASearchOfItsIndex() throws {
        let equal = try plan("code == %@", "b")
        #expect(equal.plan.contains("SEARCH"), "\(equal)")
        #expect(!equal.sql.contains("coalesce"), "\(equal.sql)")
    }

    @Test func aLongInListIsASearchOfItsIndex() throws {
        let codes = (0..<100).map { "c\($0)" }
        let member = try plan("code IN %@", codes)
        #expect(member.plan.contains("SEARCH"), "\(member)")
        let short = try plan("code IN %@", ["a", "b"])
        #expect(short.plan.contains("SEARCH"), "\(short)")
    }

    @Test func underANotAComparisonStillMakesNullFalse() throws {
        let negated = try plan("NOT (code == %@)", "b")
        #expect(negated.sql.contains("coalesce"), "\(negated.sql)")
        let all = try plan("NOT (code IN %@)", (0..<100).map { "c\($0)" })
        #expect(all.sql.contains("coalesce"), "\(all.sql)")
    }
}
