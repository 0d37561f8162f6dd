import Foundation
import PersistenceTestSupport
import Persistence
import PersistenceSQLite
import Testing

/// A fetch whose result is kept whole (`fetch(_:)`, `fetchSections`) is sorted by the SQLite
/// store in memory; a streamed one (`forEach`) by SQLite's ORDER BY. Both must give one
/// order whatever a column holds, including what another tool wrote there: integers and
/// reals in one column (as its affinity keeps them), text the store never writes, blobs.
@Suite struct SortedFetchOrderTests {
    /// Column values written behind the store's back, each as SQL, one per row.
    private static let foreignValues: [String: [String]] = [
        "str": [
            "NULL", "''", "'a'", "'B'", "'é'", "'e\u{301}'", "'a' || char(0) || 'b'", "x'00ff'", "x''", "42", "4.5",
            "-1", "'42'", "'\u{1F600}'", "'abcdefgX'", "'abcdefg'", "'abcdefgA'", "'abcdefg' || char(0)",
        ],
        "dbl": [
            "NULL", "1.5", "-0.0", "3", "9223372036854775807", "-9223372036854775808", "9.3e18", "-9.3e18",
            "9007199254740993", "'text'", "x'01'", "1e308", "-1e308", "0.1",
        ],
        "i64": [
            "NULL", "1", "1.5", "0.5", "-0.5", "9223372036854775807", "-9223372036854775808", "9.2233720368547758e18",
            "'zz'", "x'00'", "2", "2.0", "-1", "0", "9007199254740993", "9007199254740992", "-9223372036854775807",
        ],
        "dec": [
            "NULL", "'1.50'", "'1.5'", "'-0'", "'NaN'", "'0.000001'", "'-12345678901234567890.5'", "7", "7.25", "'abc'",
            "x'31'", "'1e3'", "' 2'", "'2'",
        ],
    ]

    @Test(arguments: ["str", "dbl", "i64", "dec"])
    func wholeAndStreamedFetchesAgreeOnForeignValues(_ column: String) throws {
        let values = try #require(Self.foreignValues[column])
        let (store, readable) = try storeOfForeignValues(column, values, rowCount: values.count)
        // Values the attribute's type cannot hold fail every read of their row, sorted either way.
        let unreadable = values.indices.filter { !readable.contains($0) }
        try expectOneOrder(store, column, count: values.count, failing: !unreadable.isEmpty)
        for n in unreadable { try store.file.write("UPDATE Item SET \"\(column)\" = NULL WHERE code = 'item \(n)'") }
        try expectOneOrder(store, column, count: values.count, failing: false)
        #expect(unreadable.count < values.count / 2, "\(unreadable)")

        // The order SQLite itself gives, read from the file by a connection of its own
        // (which knows no DECIMAL collation: the Decimal column is left to the checks above).
        guard column != "dec" else { return }
        let request = FetchRequest(entityName: "Item", sortDescriptors: [SortKey(column)])
        let fetched = try store.reader(everyTypeModel()).fetch(request).map { $0["code"] as? String }
        let codes = try store.file.rows("SELECT code FROM Item ORDER BY \"\(column)\", _id").map { row -> String? in
            if case .text(let code) = row[0] { return code } else { return nil }
        }
        #expect(fetched == codes)
    }

    /// Hundreds of rows — enough that the store sorts them by counting their first key's
    /// bytes rather than by comparing them — drawn from the same values, so that many share
    /// their first word and are compared key by key: a fetch kept whole gives the order SQLite
    /// itself gives, by one key either way and after another.
    @Test(arguments: ["str", "dbl", "i64"])
    func manyRowsComeInSQLitesOwnOrder(_ column: String) throws {
        let values = try #require(Self.foreignValues[column])
        let rowCount = 700
        // Each value alone first, to leave out those the attribute's type cannot hold.
        let (store, readable) = try storeOfForeignValues(column, values, rowCount: rowCount)
        var generator = SystemRandomNumberGenerator()
        for n in 0..<rowCount {
            let value = values[readable.randomElement(using: &generator)!]
            try store.file.write("UPDATE Item SET \"\(column)\" = \(value) WHERE code = 'item \(n)'")
        }
        let sorts: [([SortKey], String)] = [
            ([SortKey(column)], "\"\(column)\""), ([SortKey(column, ascending: false)], "\"\(column)\" DESC"),
            ([SortKey("i32", ascending: false), SortKey(column)], "i32 DESC, \"\(column)\""),
        ]
        for (sort, orderBy) in sorts {
            let request = FetchRequest(entityName: "Item", sortDescriptors: sort)
            let fetched = try store.reader(everyTypeModel()).fetch(request).map { $0["code"] as? String }
            let codes = try store.file.rows("SELECT code FROM Item ORDER BY \(orderBy), _id").map { row -> String? in
                if case .text(let code) = row[0] { return code } else { return nil }
            }
            #expect(fetched.count == rowCount)
            #expect(fetched == codes, "\(orderBy)")
        }
    }

    /// A store of `rowCount` items ("item 0", …; `i32` cycling through 0, 1, 2) whose first
    /// `values.count` hold `values` in `column`, written behind the store's back, and the
    /// indices of the values a fetch of their row can read.
    private func storeOfForeignValues(_ column: String, _ values: [String], rowCount: Int) throws
        -> (store: TemporaryStore, readable: [Int])
    {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
            for n in 0..<rowCount {
                let item = try container.viewContext.insertObject(forEntityName: "Item")
                item["code"] = "item \(n)"
                item["i32"] = Int64(n % 3)
            }
            try container.viewContext.save()
        }
        for (n, value) in values.enumerated() {
            try store.file.write("UPDATE Item SET \"\(column)\" = \(value) WHERE code = 'item \(n)'")
        }
        let readable = try values.indices.filter { n in
            let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate("code == %@", "item \(n)"))
            return (try? store.reader(everyTypeModel()).fetch(request)) != nil
        }
        return (store, readable)
    }

    /// Sorted by `column` (both ways, and after another key), a fetch kept whole and a
    /// streamed one give the same order, or both fail when `failing`.
    private func expectOneOrder(_ store: TemporaryStore, _ column: String, count: Int, failing: Bool) throws {
        for sort in [[SortKey(column)], [SortKey(column, ascending: false)], [SortKey("i32"), SortKey(column, ascending: false)]] {
            let request = FetchRequest(entityName: "Item", sortDescriptors: sort)
            let whole = Result { try store.reader(everyTypeModel()).fetch(request).map { $0["code"] as? String } }
            let streamed = Result {
                var codes: [String?] = []
                try store.reader(everyTypeModel()).forEach(request) { item in
                    codes.append(item["code"] as? String)
                    return true
                }
                return codes
            }
            switch (whole, streamed) {
            case (.success(let whole), .success(let streamed)):
                #expect(!failing, "\(sort)")
                #expect(whole == streamed, "\(sort)")
                #expect(whole.count == count)
            case (.failure, .failure):
                #expect(failing, "\(sort)")
            default:
                Issue.record("\(sort): whole \(whole), streamed \(streamed)")
            }
        }
    }
}
