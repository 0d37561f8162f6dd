import Foundation
import Testing

@testable import Persistence
@testable import PersistenceModel

/// The SQL `regexp` function's cache keeps every pattern of a long `MATCHES` chain: it used
/// to empty itself past 256 patterns, so a chain of 300 recompiled every pattern for every
/// row (3,000 `OR`ed `MATCHES` over 459 books took 34 s).
@Suite struct RegularExpressionCacheTests {
    @Test func aChainOfThousandsOfPatternsIsCompiledOnce() throws {
        let cache = RegularExpressionCache()
        let patterns = (0..<3_000).map { "zz\($0).*" }
        for _ in 0..<3 {
            for pattern in patterns { _ = try cache.matches(pattern: pattern, text: "title") }
        }
        #expect(cache.compilations == patterns.count)
    }

    @Test func theCacheStaysBounded() throws {
        let cache = RegularExpressionCache()
        for index in 0..<(RegularExpressionCache.capacity + 10) {
            _ = try cache.matches(pattern: "p\(index)", text: "p")
        }
        #expect(cache.compilations == RegularExpressionCache.capacity + 10)
        // Emptied when full: the first patterns are compiled again.
        _ = try cache.matches(pattern: "p0", text: "p")
        #expect(cache.compilations == RegularExpressionCache.capacity + 11)
    }
}
