import Foundation
import Testing

/// `books list --where` with lists and chains far past SQLite's expression depth of 1,000.
/// (An argument is at most 128 KiB on Linux, which bounds how long they can be here.)
@Suite struct LongWherePredicateTests {
    @Test func aTenThousandValueINListOfPrices() throws {
        let sandbox = try BooksSandbox.seeded()
        let all = try sandbox.run(["list", "--json"])
        let prices = try all.jsonObjects().compactMap { $0["price"] as? String }
        let wanted = Set(prices.prefix(3))
        // The wanted prices written with a trailing zero (12.5 as "12.50" stays exact), then
        // 10,000 prices no book has.
        let values = wanted.map { $0.contains(".") ? $0 + "0" : $0 } + (0..<10_000).map { "100000.\($0)1" }
        let run = try sandbox.run(["list", "--json", "--where", "price IN {\(values.joined(separator: ","))}"])
        #expect(run.status == 0, "\(run)")
        let found = try run.jsonObjects().compactMap { $0["price"] as? String }
        #expect(Set(found) == wanted)
        #expect(found.count == prices.filter(wanted.contains).count)
    }

    @Test func tenThousandTermOrAndAndChains() throws {
        let sandbox = try BooksSandbox.seeded()
        let or = (0..<10_000).map { "price=\($0)" }.joined(separator: "||")
        let orRun = try sandbox.run(["list", "--json", "--where", or])
        #expect(orRun.status == 0, "\(orRun)")
        let and = (0..<10_000).map { "price!=\($0)" }.joined(separator: "&&")
        let andRun = try sandbox.run(["list", "--json", "--where", and])
        #expect(andRun.status == 0, "\(andRun)")
        #expect(try orRun.jsonObjects().count + andRun.jsonObjects().count == sandbox.bookCount())
    }
}
