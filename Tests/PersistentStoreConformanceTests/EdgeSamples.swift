import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// `Sample`s at the edges of every attribute type (nil, NaN, ±infinity, -0, integers past
/// 2⁵³, decimals against doubles, dates against ISO date text, text with U+0000 and U+0001,
/// LIKE's and SQL's wildcards and quotes, folding) and predicates and sorts over them, which
/// every store must answer as `PredicateEvaluator` and `SortValueOrder` answer in memory.
enum EdgeSamples {
    /// Samples with every attribute type, nils, NaN, large integers, escaped and non-ASCII
    /// text, and owners (some without a name, one sample without an owner).
    static func seed(_ context: ManagedObjectContext) throws {
        let names: [String?] = ["Łódź", "anna", nil, "Zoë"]
        var owners: [ManagedObject] = []
        for (i, name) in names.enumerated() {
            let owner = try context.insertObject(forEntityName: "Author")
            owner["n"] = Int64(i)
            owner["name"] = name
            owners.append(owner)
        }
        let texts: [String?] = [
            "apple", "Apple", "ÄPFEL", nil, "", "a\u{0}b", "\u{1}984", "1984", "\u{0}42", "50% off", "under_score", "back\\slash",
            "it's", "$1; DROP TABLE \"Sample\"; --", "Straße", "zebra", "a\nb",
        ]
        let doubles: [Double?] = [1.5, .nan, nil, -0.0, 0.1, 2.5, .infinity, -.infinity, 9_007_199_254_740_993, 3]
        let decimals: [Decimal?] = [Decimal(string: "0.1"), Decimal(string: "2.50"), nil, Decimal(string: "-7"), Decimal(string: "12345678901234567890.123")]
        let integers: [Int64?] = [2, 3, nil, -1, Int64.max, 9_007_199_254_740_993, 0]
        for n in 0..<40 {
            let sample = try context.insertObject(forEntityName: "Sample")
            sample["n"] = Int64(n)
            sample["str"] = texts[n % texts.count]
            sample["dbl"] = doubles[n % doubles.count]
            sample["dec"] = decimals[n % decimals.count]
            sample["i64"] = integers[n % integers.count]
            sample["i16"] = Int64(n % 5)
            sample["flag"] = n % 3 == 2 ? nil : (n % 2 == 0)
            sample["when"] = n % 6 == 5 ? nil : Date(timeIntervalSince1970: 1_577_836_800 + Double(n) * 86_400 * 9)
            sample["id"] = n % 4 == 3 ? nil : UUID(uuidString: String(format: "%08X-0000-4000-8000-000000000000", (n * 7919) % 97))
            sample["bytes"] = n % 5 == 4 ? nil : Data([UInt8(n % 3), UInt8(n % 7)])
            sample["link"] = n % 4 == 1 ? nil : URL(string: "https://example.com/\(n % 9)")
            sample.setObject(n % 5 == 4 ? nil : owners[n % owners.count], forKey: "owner")
        }
        try context.save()
    }

    /// Predicates that the PostgreSQL store compiles to SQL, each with its arguments.
    static func compiled() -> [(String, [Any?])] { [
        ("n < 10", []), ("10 > n", []), ("i64 == %@", [Int64.max]), ("i64 > 2.5", []), ("i64 < 2.5", []),
        ("i64 == 3.0", []), ("i64 != 2.5", []), ("i64 >= 1e19", []), ("i64 > %@", [Double(Int64.max)]), ("i64 < %@", [Decimal(string: "2.5")!]),
        ("dbl > 1", []), ("dbl == nil", []), ("dbl >= %@", [-Double.infinity]), ("dbl == %@", [Double.nan]), ("dbl != %@", [Double.nan]), ("NOT (dbl < 2)", []),
        ("dbl == %@", [Int64(9_007_199_254_740_992)]), ("dbl <= %@", [Decimal(string: "0.1")!]), ("dbl > %@", [Decimal(string: "0.1")!]),
        ("dec == 2.5", []), ("dec > 0.1", []), ("dec < %@", [Double.infinity]), ("dec >= %@", [Decimal(string: "0.10")!]),
        ("dec BETWEEN {0, 3}", []), ("dec != nil", []), ("dec == nil", []), ("NOT (dec > 1)", []),
        ("flag == YES", []), ("flag == 0", []), ("flag != YES", []), ("flag == nil", []),
        ("when > %@", [Date(timeIntervalSince1970: 1_590_000_000)]), ("when < \"2020-06\"", []),
        ("when BETWEEN {\"2020\", \"2020-12-31\"}", []),
        ("id == %@", [UUID(uuidString: "0000001D-0000-4000-8000-000000000000")!]), ("id > %@", [UUID(uuidString: "00000030-0000-4000-8000-000000000000")!]),
        ("bytes == %@", [Data([1, 1])]), ("bytes < %@", [Data([1])]),
        ("link == %@", [URL(string: "https://example.com/3")!]), ("link > %@", [URL(string: "https://example.com/5")!]),
        ("str == \"apple\"", []), ("str < \"b\"", []), ("str >= \"Z\"", []), ("str == nil", []),
        ("str != \"apple\"", []), ("NOT (str BEGINSWITH \"a\")", []), ("str CONTAINS \"1\"", []), ("str CONTAINS \"19\"", []), ("str CONTAINS \"1984\"", []), ("str CONTAINS \"042\"", []),
        ("str ENDSWITH \"042\"", []),
        ("str CONTAINS %@", ["\u{0}"]), ("str CONTAINS %@", ["\u{1}"]), ("str ENDSWITH \"84\"", []), ("str ENDSWITH \"\"", []),
        ("str BEGINSWITH %@", ["\u{1}"]), ("str LIKE \"*e\"", []), 
        ("str LIKE \"?1984\"", []), ("str LIKE \"*%*\"", []), ("str LIKE \"*_*\"", []), ("str LIKE \"*\\\\*\"", []),
        ("str CONTAINS \"%\"", []), ("str CONTAINS \"_\"", []), ("str CONTAINS \"\\\\\"", []), ("str CONTAINS \"'\"", []),
        ("str CONTAINS \"$1\"", []), ("str CONTAINS \";\"", []), ("owner.name CONTAINS[cd] \"O\"", []),
        ("owner.name LIKE[cd] \"*DZ\"", []), ("owner.name BEGINSWITH[cd] \"zo\"", []), ("owner.name <[cd] \"b\"", []),
        ("str IN {\"apple\", nil, \"zebra\"}", []), ("n IN {}", []), ("str ==[cd] nil", []), ("str CONTAINS nil", []),
        ("owner.name == \"anna\"", []), ("owner.name ==[cd] \"lodz\"", []), ("owner.name == nil", []), ("owner == nil", []),
        ("owner != nil AND (str BEGINSWITH \"a\" OR dbl > 2)", []), ("NOT (owner.name CONTAINS[cd] \"o\")", []),
        ("owner.n >= 2 OR i16 == 4", []), ("TRUEPREDICATE", []), ("FALSEPREDICATE", []),
        ("owner.books.@count > 0", []), ("ANY owner.samples.n == 3", []), ("ANY owner.samples.str CONTAINS \"1\" AND n < 30", []),
    ] }

    /// Predicates of which the PostgreSQL store leaves some term to memory.
    static func inMemory() -> [(String, [Any?])] { [
        ("str MATCHES \"a.*\"", []), ("str ==[cd] \"APPLE\"", []), ("str LIKE[cd] \"a*\"", []), ("str CONTAINS[d] \"a\"", []), ("str CONTAINS[c] \"a\"", []),
        ("n < 30 AND str MATCHES \"a.*\"", []), ("ANY owner.samples.n == 3 AND str CONTAINS[d] \"a\"", []),
    ] }

    /// Predicates the PostgreSQL store compiles that the SQLite store answers otherwise:
    /// SQLite's GLOB ends a string at U+0000, so its `LIKE "a?b"` misses `"a\u{0}b"`.
    static func compiledBeyondSQLite() -> [(String, [Any?])] { [("str LIKE \"?42\"", []), ("str LIKE \"a?b\"", [])] }

    /// Predicates the PostgreSQL store leaves to memory that the SQLite store refuses (a
    /// key path compared with another).
    static func inMemoryBeyondSQLite() -> [(String, [Any?])] { [("n < i16", [])] }

    /// Sort keys over the samples; `n` last makes every order total.
    static let sorts: [[SortKey]] = [
        [SortKey("dbl")], [SortKey("dbl", ascending: false)], [SortKey("str")], [SortKey("str", ascending: false)],
        [SortKey("dec")], [SortKey("flag"), SortKey("i64", ascending: false)], [SortKey("when", ascending: false)],
        [SortKey("id")], [SortKey("bytes")], [SortKey("link", ascending: false)], [SortKey("owner.name"), SortKey("str")],
    ]

    /// The samples in the order `keys` sort them in memory, ties by `tieBreak`.
    static func sorted(
        _ samples: [ManagedObject], by keys: [SortKey], tieBreak: (ManagedObject, ManagedObject) -> Bool
    ) throws -> [ManagedObject] {
        try samples.sorted { a, b in
            for key in keys {
                let path = key.keyPath.split(separator: ".").map(String.init)
                let left = try PredicateEvaluator(.alwaysTrue).walk(.object(a), path)
                let right = try PredicateEvaluator(.alwaysTrue).walk(.object(b), path)
                let order = SortValueOrder.compare(left, right)
                if order != .orderedSame { return (order == .orderedAscending) == key.ascending }
            }
            return tieBreak(a, b)
        }
    }
}
