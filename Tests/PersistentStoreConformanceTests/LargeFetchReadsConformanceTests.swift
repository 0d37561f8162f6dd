import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// The reads behind Core Data's tools for large fetches (`rows(for:)`,
/// `destinationRows(of:from:)`, `forEachValues(of:_:_:)`): whatever a store answers them
/// with, its own read by many keys or the protocol's defaults, they answer what its one-row
/// reads answer.
@Suite struct LargeFetchReadsConformanceTests {
    /// `rows(for:)`: the rows `row(for:)` reads, each once, none for a key with no row.
    @Test(arguments: StoreFactories.all)
    func rowsForManyIDsAreTheRowsOfEach(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let books = library.objects.books.map(\.objectID)
        let authors = library.objects.authors.map(\.objectID)
        let ids = Array(books.prefix(7)) + Array(books.prefix(3)) + authors
        let rows = try library.store.rows(for: ids)
        let expected = try ids.compactMap { try library.store.row(for: $0) }
        func summaries(_ rows: [StoreRow]) -> Set<String> {
            Set(rows.map { "\($0.objectID) \($0.slots.map(\.summary))" })
        }
        #expect(rows.count == 7 + authors.count)
        #expect(summaries(rows) == summaries(expected))
        // An Ebook reads as one, by the ID its object has.
        #expect(rows.contains { $0.schema.name == "Ebook" })
    }

    /// `destinationRows(of:from:)`: each source's destinations as `forEachDestinationRow`
    /// reads them, in the same order, through an inverse to-one, a many-to-many and an
    /// ordered to-many.
    @Test(arguments: StoreFactories.all)
    func destinationsOfManySourcesAreEachSourcesInOrder(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let cases: [(sources: [ManagedObject], relationship: String)] = [
            (library.objects.authors, "books"), (library.objects.books, "tags"), (library.objects.shelves, "books"),
            (library.objects.tags, "books"),
        ]
        for (sources, name) in cases {
            guard let first = sources.first, let relationship = first.entity.relationships.first(where: { $0.name == name })
            else {
                Issue.record("no relationship \(name)")
                continue
            }
            let bySource = try library.store.destinationRows(of: relationship, from: sources.map(\.objectID))
            for source in sources {
                var expected: [Int64] = []
                try library.store.forEachDestinationRow(of: relationship, from: source.objectID) { row in
                    expected.append(row.serial)
                    return true
                }
                let found = bySource[source.objectID]?.map(\.serial) ?? []
                #expect(found == expected, "\(source.objectID).\(name)")
            }
        }
    }

    /// `forEachValues(of:_:_:)`: for each row the request fetches, in order, the values the
    /// key paths reach from the whole row (a related row's through its to-one); whether the
    /// values are the sort keys themselves or not, with a limit or without.
    @Test(arguments: StoreFactories.all)
    func valuesOfKeyPathsAreTheRowsValues(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        var request = FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title"), SortKey("n")])
        request.predicate = try FetchPredicate("n > 2")
        let book = try #require(library.store.model.schema(for: "Book"))
        for keyPaths in [["n", "title", "price", "rating", "author", "author.name", "author.n"], ["title", "n"]] {
            for limit in [nil, 3] {
                request.fetchLimit = limit
                var values: [[String]] = []
                try library.store.forEachValues(of: keyPaths, request) { slots in
                    values.append(slots.map(Self.describe))
                    return true
                }
                let paths = try keyPaths.map { try StoredKeyPath($0, entity: book, model: library.store.model) }
                var expected: [[String]] = []
                try library.store.forEachRow(request) { row in
                    expected.append(
                        try paths.map { try Self.describe($0.value(in: row) { try library.store.row(for: $0) }) })
                    return true
                }
                #expect(values == expected, "\(keyPaths), limit \(limit.map(String.init) ?? "none")")
                #expect(!values.isEmpty)
            }
        }
        // A key path the store does not keep is refused as a fetch refuses it.
        for keyPath in ["nope", "tags.name", "author.nope"] {
            #expect(throws: FetchError.self) {
                try library.store.forEachValues(of: [keyPath], request) { _ in true }
            }
        }
    }

    /// A value as a test compares it: no destination is nil, whichever case says so.
    private static func describe(_ slot: StoredSlot) -> String {
        switch slot {
        case .value(let value): return value.isNull ? "nil" : "\(value)"
        case .toOneFault(let id): return id.map { "\($0.rootName)/\($0.primaryKey ?? -1)" } ?? "nil"
        default: return slot.summary
        }
    }
}
