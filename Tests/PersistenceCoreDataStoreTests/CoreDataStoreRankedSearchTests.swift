import Foundation
import Persistence
@testable import PersistenceCoreDataStore
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import Testing

/// A search on a store in Core Data's layout is ranked, sorted and windowed in SQL
/// (`predicate_search_rank`, then the request's sort keys, then `Z_PK`, then `LIMIT`), so
/// that a common word decodes only the rows listed, not every match; its answer is the one
/// ranking in memory gives (`SearchText.rank`, the sort keys, the key), and a sort key SQL
/// cannot order (a decimal) still ranks in memory.
@Suite struct CoreDataStoreRankedSearchTests {
    typealias Fixture = CoreDataStoreSQLFetchTests

    /// The fixture's ten items (`n` 0–9, the last one unreadable), renamed so that "item"
    /// ranks 0 for most, 1 for `n` 9 ("items nine": the start of a word) and 3 for `n` 3
    /// ("subitem": inside one).
    static func rankedStore() throws -> (store: CoreDataStore, remove: () -> Void) {
        let (url, remove) = try Fixture.storeWithOneUnreadableRow()
        let database = try Database(path: url.path, mode: .mustExist)
        try database.execute("UPDATE ZITEM SET ZNAME = 'items nine' WHERE ZN = 9")
        try database.execute("UPDATE ZITEM SET ZNAME = 'subitem' WHERE ZN = 3")
        try database.close()
        let store = try CoreDataStore(model: Fixture.model(), url: url)
        return (store, { try? store.close(); remove() })
    }

    static func search(_ text: String, sort: [SortKey], limit: Int? = nil, offset: Int = 0) -> FetchRequest {
        var request = FetchRequest(entityName: "Item", sortDescriptors: sort, fetchLimit: limit)
        request.fetchOffset = offset
        request.searchText = text
        return request
    }

    /// The unreadable row (rank 1) lies past the window of the eight rows of rank 0: it is
    /// never decoded, by a fetch, its IDs, a dictionary result or a count. Ranking in memory
    /// decoded every match, and failed on it.
    @Test func aWindowedSearchDecodesOnlyTheRowsItLists() throws {
        let (store, remove) = try Self.rankedStore()
        defer { remove() }
        let firstEight = Self.search("item", sort: [SortKey("n")], limit: 8)
        #expect(try Fixture.serials(store, firstEight) == [0, 1, 2, 4, 5, 6, 7, 8])
        #expect(try store.objectIDs(for: firstEight).count == 8)
        var names: [String] = []
        try store.forEachValues(of: ["name"], firstEight) { slots in
            if case .value(.string(let name)) = slots[0] { names.append(name) }
            return true
        }
        #expect(names == (0..<9).filter { $0 != 3 }.map { "item \($0)" })
        let newestFirst = Self.search("item", sort: [SortKey("n", ascending: false)], limit: 3, offset: 2)
        #expect(try Fixture.serials(store, newestFirst) == [6, 5, 4])
        // Counted in SQL, the unreadable row among the matches.
        #expect(try store.count(for: Self.search("item", sort: [])) == 10)
        #expect(try store.count(for: Self.search("item", sort: [], limit: 4, offset: 8)) == 2)
        // Every match read: the unreadable row is reported, as before.
        #expect(throws: StoreError.self) { try Fixture.serials(store, Self.search("item", sort: [SortKey("n")])) }
    }

    /// The SQL orders by the rank first and windows: nothing of the search is left to memory.
    @Test func theRankAndTheWindowAreSQLs() throws {
        let (store, remove) = try Self.rankedStore()
        defer { remove() }
        let (table, query, _) = try store.compiled(Self.search("item", sort: [SortKey("name")], limit: 3))
        let sql = query.selectSQL(columns: store.selectedColumns(table))
        #expect(query.ranksSearch)
        #expect(sql.contains("ORDER BY predicate_search_rank("), "\(sql)")
        #expect(sql.contains("LIMIT 3"), "\(sql)")
        #expect(query.orderingBindings == [.text("item")])
        // A decimal sort key is ordered in memory: so is the rank, and the window.
        let (_, byPrice, _) = try store.compiled(Self.search("item", sort: [SortKey("price")], limit: 3))
        #expect(!byPrice.ranksSearch)
        #expect(!byPrice.windowInSQL)
    }

    /// The connection's `predicate_search_rank` gives `SearchText.rank`'s rank (the SQLite
    /// store's `search_rank`) for text that folds (case, accents, `ß`, full-width forms,
    /// white space), NULL fields and a NULL phrase; its phrase's ranker, kept from call to
    /// call, follows a new phrase.
    @Test func theRankFunctionRanksAsSearchTextRanks() throws {
        let (store, remove) = try Self.rankedStore()
        defer { remove() }
        let fields: [[String?]] = [
            ["The Ring", nil], [nil, "Ring Lardner"], ["Ringworld", "Larry Niven"], ["Boring", "N. N."],
            ["DIE STRASSE", "Ödön"], ["Die Straße", "x"], ["  lord \t of   the rings ", nil], ["ＲＩＮＧ", "ｌｏｒｄ"],
            ["Łódź Nights", "Ärger"], [nil, nil], ["", ""], ["rings, lord", "of"],
        ]
        for text in ["ring", "lord of", "rings lord", "strasse", "lodz", "ärger", "ing", "ring lord", "of"] {
            let phrase = SearchText(text).phrase
            for row in fields {
                let rank = try store.database.scalar(
                    "SELECT predicate_search_rank(?, ?, ?)",
                    [.text(phrase)] + row.map { $0.map(SQLiteValue.text) ?? .null })
                let expected = SearchText.rank(phrase: phrase, fields: row.map { $0.map(CanonicalText.fold) })
                #expect(rank == .integer(Int64(expected)), "\(text) \(row)")
            }
        }
        #expect(try store.database.scalar("SELECT predicate_search_rank(NULL, 'ring')") == .integer(3))
        #expect(try store.database.scalar("SELECT predicate_search_rank('ring')") == .integer(3))
    }

    /// Every window of every search over every sort gives what ranking the same names in
    /// memory gives: rank, then the sort key, then the key; the unreadable row made readable.
    @Test func rankedInSQLAsInMemory() throws {
        let (url, remove) = try Fixture.storeWithOneUnreadableRow()
        defer { remove() }
        let names = [
            "Ring", "The Ring", "Boring", "ringworld", "RING of fire", "  ring  ", "Ríng", "lord of the rings",
            "rings lord", "The Lord of the Rings",
        ]
        let database = try Database(path: url.path, mode: .mustExist)
        try database.execute("UPDATE ZITEM SET ZCOUNT = 90 WHERE ZN = 9")
        for (n, name) in names.enumerated() {
            try database.execute("UPDATE ZITEM SET ZNAME = ?, ZCOUNT = ? WHERE ZN = ?", [.text(name), .integer(Int64(n % 3)), .integer(Int64(n))])
        }
        try database.close()
        let store = try CoreDataStore(model: Fixture.model(), url: url)
        defer { try? store.close() }
        for text in ["ring", "RING", "lord of", "rings lord", "ing", "of the", "ring fire", "zz", "  "] {
            let search = SearchText(text)
            for sort in [[], [SortKey("count")], [SortKey("count", ascending: false), SortKey("name")], [SortKey("price")]] {
                // The answer in memory: the matches, by rank, the sort keys, then `n` (the key's order here).
                let matches = names.indices.filter { search.matches([CanonicalText.fold(names[$0])]) && !search.words.isEmpty }
                func key(_ n: Int) -> (Int, [String]) {
                    let count = String(n % 3), name = names[n], price = String(format: "%04d", n * 10)
                    let keys = sort.map { key -> String in
                        switch key.keyPath {
                        case "count": key.ascending ? count : String(9 - (n % 3))
                        case "price": price
                        default: name
                        }
                    }
                    return (search.rank([CanonicalText.fold(names[n])]), keys)
                }
                let expected = matches.sorted { a, b in
                    let (ka, kb) = (key(a), key(b))
                    if ka.0 != kb.0 { return ka.0 < kb.0 }
                    for index in ka.1.indices where ka.1[index] != kb.1[index] {
                        let ascending = sort[index].ascending || sort[index].keyPath == "count"
                        let before = Array(ka.1[index].utf8).lexicographicallyPrecedes(Array(kb.1[index].utf8))
                        return ascending ? before : !before
                    }
                    return a < b
                }.map(Int64.init)
                for (limit, offset) in [(nil, 0), (3, 0), (2, 2), (1, 9)] as [(Int?, Int)] {
                    let request = Self.search(text, sort: sort, limit: limit, offset: offset)
                    let window = Array(expected.dropFirst(offset).prefix(limit ?? .max))
                    #expect(try Fixture.serials(store, request) == window, "\(text) \(sort) \(String(describing: limit)) \(offset)")
                    #expect(try store.count(for: request) == window.count, "\(text) \(sort)")
                }
            }
        }
    }
}
