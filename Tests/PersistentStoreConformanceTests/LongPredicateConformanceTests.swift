import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// Long predicates on every store: `IN` lists of thousands of values and `AND`/`OR` chains
/// of thousands of terms, as an app writes when it fetches "these IDs" or builds a filter
/// from a selection. SQLite refuses an expression nested more than 1,000 levels deep and
/// nests a flat chain one level a term, so a store that spells such a list as a flat chain
/// fails where the evaluator answers: each store must give the evaluator's answer.
@Suite struct LongPredicateConformanceTests {
    /// `key IN {…}` with `values` spelled as the parser reads them.
    static func list(_ key: String, _ values: some Sequence<String>) -> String {
        "\(key) IN {" + values.joined(separator: ", ") + "}"
    }

    /// Requests whose predicates are long in each way: lists of integers, strings and
    /// decimals, negated, through a to-many, and chains of `OR` and `AND`.
    static func requests() throws -> [(name: String, request: FetchRequest)] {
        func books(_ format: String, _ arguments: Any?...) throws -> FetchRequest {
            FetchRequest(
                entityName: "Book", predicate: try FetchPredicate(format: format, argumentArray: arguments),
                sortDescriptors: [SortKey("n")])
        }
        let serials = (0..<5_000).map { String($0 * 7) }
        // Strings JSON must escape, beside titles of the library that match.
        let awkward = ["Cien años de soledad", "a \"quoted\" \\ title", "tab\tline\nend\u{1}", "🦊 ÉCOLE"]
        let titles = ["Solaris", "Light", "ÉTÉ"] + awkward + (0..<3_000).map { "title \($0)" }
        let orChain = (0..<2_000).map { "n == \($0 * 3)" }.joined(separator: " OR ")
        let andChain = (0..<2_000).map { "n != \($0 * 5 + 1)" }.joined(separator: " AND ")
        return [
            ("5,000 integers IN", try books(list("n", serials))),
            ("NOT 5,000 integers IN", try books("NOT (" + list("n", serials) + ")")),
            ("3,007 strings IN", try books("title IN %@", titles)),
            ("3,007 strings IN[cd]", try books("title IN[cd] %@", titles)),
            ("2,000 decimals IN", try books(list("price", (0..<2_000).map { "\($0).50" }))),
            ("ANY through a to-many IN 3,009 names", try books("ANY tags.name IN %@", ["sf", "classic"] + titles)),
            ("an OR of 2,000 terms", try books(orChain)),
            ("an AND of 2,000 terms", try books(andChain)),
            ("NOT an OR of 2,000 terms", try books("NOT (" + orChain + ")")),
        ]
    }

    /// Every long request fetches the evaluator's rows, in order, and counts them.
    @Test(arguments: StoreFactories.all)
    func longListsAndChainsAreTheInMemoryAnswer(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        for (name, request) in try Self.requests() {
            do {
                let expected = try library.expectedObjects(request)
                #expect(try library.storedObjects(request) == expected, "\(name)")
                #expect(try library.store.count(for: request) == expected.count, "\(name): count")
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
    }
}
