import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// The contract's ranking of a search (`SearchText.rank`) and `searchedKeyPaths(for:)`.
@Suite struct SearchConformanceTests {
    static let texts = [
        "light", "night", "ring", "lem", "anos", "marquez cien", "ecole", "ana light", "zz", "  ",
    ]

    static func request(
        _ text: String, where predicate: FetchPredicate? = nil, sort: [SortKey], limit: Int? = nil,
        offset: Int = 0
    ) -> FetchRequest {
        var request = FetchRequest(
            entityName: "Book", predicate: predicate, sortDescriptors: sort, fetchLimit: limit)
        request.fetchOffset = offset
        request.searchText = text
        request.searchKeyPaths = ["canonicalTitle", "author.canonicalName"]
        return request
    }

    /// Fetches: a search answers the matching rows best rank first (`SearchText.rank` over the
    /// searched key paths, read from objects in memory), the request's order within a rank,
    /// then its window.
    @Test(arguments: StoreFactories.all)
    func searchRanksAsSearchTextRanks(_ factory: StoreFactory) throws {
        try Self.expectRankedAnswers(from: StoredLibrary(factory))
    }

    /// Fetches: a search finds a book by the title it was last saved with, and no longer
    /// finds a deleted one, in a store opened again too (its search index follows its rows).
    @Test(arguments: StoreFactories.all)
    func searchFollowsSavedChanges(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        try library.change(FetchConformanceTests.someChanges)
        try Self.expectRankedAnswers(from: library)
        if factory.keepsObjectsWhenReopened {
            try library.subject.reopen()
            try Self.expectRankedAnswers(from: library)
        }
    }

    static func expectRankedAnswers(
        from library: StoredLibrary, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let windows: [(limit: Int?, offset: Int)] = [(nil, 0), (3, 0), (2, 2)]
        let dated = try FetchPredicate("year != nil")
        for text in Self.texts {
            for predicate in [nil, dated] {
                for sort in [[SortKey("year")], [SortKey("title", ascending: false)], []] {
                    for window in windows {
                        let request = Self.request(
                            text, where: predicate, sort: sort, limit: window.limit,
                            offset: window.offset)
                        let name =
                            "\(text) where \(predicate?.description ?? "-") by \(sort), \(window)"
                        let expected = try Self.ranked(request, in: library)
                        var rows: [StoreRow] = []
                        try library.store.forEachRow(request) { row in
                            rows.append(row)
                            return true
                        }
                        #expect(
                            rows.map(\.serial) == expected, "\(name)",
                            sourceLocation: sourceLocation)
                        let count = try library.store.count(for: request)
                        #expect(count == expected.count, "\(name)", sourceLocation: sourceLocation)
                        let ids = try library.store.objectIDs(for: request)
                        #expect(
                            ids == rows.map(\.objectID), "\(name)", sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }

    /// `searchedKeyPaths(for:)`: one key path per searched attribute, each readable from an
    /// unsaved object, so that it ranks as the store ranks its row; an empty list searches
    /// every attribute of the entity indexed for search.
    @Test(arguments: StoreFactories.all)
    func searchedKeyPathsReadFromObjectsInMemory(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let request = Self.request("light", sort: [])
        let keyPaths = try library.store.searchedKeyPaths(for: request)
        #expect(keyPaths.count == 2)
        var own = request
        own.searchKeyPaths = []
        #expect(
            try library.store.searchedKeyPaths(for: own).count == 1,
            "Book has one attribute indexed for search")
        // Read from an unsaved book, each key path gives the text its searched attribute
        // will hold once saved.
        let saved = library.objects.books[1]
        let unsaved = library.referenceBook(1)
        let savedFields = ["canonicalTitle", "author.canonicalName"].map { try? text(saved, $0) }
        let unsavedFields = keyPaths.map { try? text(unsaved, $0).map(CanonicalText.fold) }
        #expect(unsavedFields == savedFields)
    }

    // MARK: - The answer in memory

    /// What the contract says a search answers: the request without its search, in memory;
    /// the objects whose fields match every word, stably sorted by rank; then the window.
    static func ranked(_ request: FetchRequest, in library: StoredLibrary) throws -> [Int64] {
        var unsearched = request
        unsearched.searchText = nil
        unsearched.fetchLimit = nil
        unsearched.fetchOffset = 0
        let search = SearchText(request.searchText ?? "")
        guard !search.words.isEmpty else { return [] }
        let keyPaths = try library.store.searchedKeyPaths(for: request)
        var ranked: [(rank: Int, position: Int, serial: Int64)] = []
        for (position, object) in try library.reference.fetch(library.inKeyOrder(unsearched))
            .enumerated()
        {
            let fields = keyPaths.map {
                (try? text(object, $0)).flatMap { $0 }.map(CanonicalText.fold) ?? ""
            }
            guard search.matches(fields) else { continue }
            ranked.append((search.rank(fields), position, object.serial))
        }
        ranked.sort { ($0.rank, $0.position) < ($1.rank, $1.position) }
        let serials = ranked.map(\.serial)
        let start = min(request.fetchOffset, serials.count)
        let end = request.fetchLimit.map { min(start + $0, serials.count) } ?? serials.count
        return Array(serials[start..<end])
    }
}

/// The string at `keyPath` from `object`, or nil.
private func text(_ object: ManagedObject, _ keyPath: String) throws -> String? {
    let components = keyPath.split(separator: ".").map(String.init)
    guard
        case .string(let value) = try PredicateEvaluator(.alwaysTrue).walk(
            .object(object), components)
    else {
        return nil
    }
    return value
}
