import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
@testable import PersistenceContext

/// The registry's table registers N or 4N objects in any key order in linear time: a search
/// registers its rows in rank order, and dense keys arriving out of order (descending worst
/// of all) once piled into one long run that every insert shifted.
@Suite struct RegistryScaleTests {
    /// This thread's CPU time, in seconds (tests running beside it do not count).
    private func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds to register and then remove `keys`, best of three.
    private func seconds(_ keys: [UInt64], _ object: ManagedObject) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            var table = PrimaryKeyHashTable()
            let start = now()
            for key in keys {
                let found = table.lookUp(key)
                if found.object == nil { table.insert(object, forKey: key, at: found.index) }
            }
            for key in keys { table.remove(key) }
            best = min(best, now() - start)
            #expect(table.count == 0)
        }
        return best
    }

    /// Keys 1…n with one in twenty missing (rows a search did not match), in `order`; or
    /// every sixteenth key (one per group of the table's homes) for "sixteenths".
    private func keys(_ n: Int, _ order: String) -> [UInt64] {
        if order == "sixteenths" { return (1...UInt64(n)).map { $0 * 16 } }
        var random = SplitMix64(seed: 7)
        var keys = (1...UInt64(n + n / 19)).filter { _ in random.next() % 20 != 0 }
        switch order {
        case "descending": keys.reverse()
        case "shuffled":
            for i in stride(from: keys.count - 1, to: 0, by: -1) { keys.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        default: break
        }
        return keys
    }

    @Test(arguments: ["ascending", "descending", "shuffled", "sixteenths"])
    func registeringGrowsLinearly(_ order: String) throws {
        let (_, context) = try BookFixture.make()
        let schema = try #require(context.model.schema(for: "Book"))
        let object = context.makeObject(
            schema: schema,
            id: ObjectID(entityName: "Book", rootName: "Book", storeIdentifier: "test", key: .temporary(1)), isFault: true)
        let small = seconds(keys(10_000, order), object)
        let large = seconds(keys(40_000, order), object)
        #expect(large / max(small, 1e-4) < 8, "\(order): \(small) s for 10,000 keys, \(large) s for 40,000")
    }
}
