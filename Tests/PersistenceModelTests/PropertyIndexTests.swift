import Testing

@testable import PersistenceModel

/// Names resolve to the positions a dictionary gives, on the scan's path and the
/// dictionary's alike.
@Suite struct PropertyIndexTests {
    private func dictionary(_ names: [String]) -> [String: Int] {
        var byName: [String: Int] = [:]
        for (position, name) in names.enumerated() { byName[name] = position }
        return byName
    }

    /// Every name, names that share a length and first and last bytes, names that are no
    /// property's, a name longer than a small string, the empty name and names equal only
    /// under canonical equivalence resolve as in a dictionary; for an entity small enough
    /// to scan and one past the limit.
    @Test(arguments: [8, 40])
    func namesResolveAsInADictionary(count: Int) {
        let fixed = [
            "title", "tithe", "tile", "author", "canonicalTitle", "a property name longer than fifteen bytes", "",
            "caf\u{E9}", "tag",
        ]
        let names = (fixed + (0..<count).map { "p\($0)" }).prefix(count).map { $0 }
        let index = PropertyIndex(names: names)
        let expected = dictionary(names)
        let probes =
            names + [
                "titles", "tittle", "Title", "authors", "a property name longer than fifteen bytez", "cafe\u{301}", "x",
                "p999",
            ]
        for probe in probes {
            #expect(index[probe] == expected[probe], "\(probe.debugDescription)")
        }
        #expect(index["cafe\u{301}"] == expected["caf\u{E9}"])
    }

    /// The last of equal names wins, as in a dictionary built in order.
    @Test func theLastOfEqualNamesWins() {
        let names = ["name", "other", "name", "caf\u{E9}", "cafe\u{301}"]
        let index = PropertyIndex(names: names)
        #expect(index["name"] == 2)
        #expect(index["caf\u{E9}"] == dictionary(names)["caf\u{E9}"])
    }
}
