import Foundation
import PersistenceTestSupport
#if canImport(Glibc)
    import Glibc
#endif
import Testing
import Persistence

@Suite struct RelationshipScaleTests {
    /// Adding objects one by one to a loaded to-many, from either side, stays linear: four
    /// times the links cost about four times the work, where scanning the list at each add
    /// made it sixteen. Measured as this thread's CPU time, two sizes in the same run, so a
    /// loaded machine slows both alike.
    @Test func addingOneByOneFromEitherSideStaysLinear() throws {
        let small = try cpuSeconds { try addLinks(2_500) }
        let large = try cpuSeconds { try addLinks(10_000) }
        #expect(large / small < 9, "4× the links took \(large / small)× the time (\(small) s, \(large) s)")
    }

    private func addLinks(_ count: Int) throws {
        let context = try PersistentContainer(model: relationshipModel(), storeURL: nil).viewContext
        let author = try context.make("Author", "a")
        let tag = try context.make("Tag", "t")
        for i in 0..<count {
            let book = try context.make("Book", "b\(i)")
            book.setObject(author, forKey: "author")
            tag.addObject(book, forKey: "books")
        }
        #expect(author.objects(forKey: "books").count == count)
        #expect(tag.objects(forKey: "books").count == count)
        try context.save()
    }

    /// The CPU time this thread spends in `body`: other tests running beside it do not count.
    private func cpuSeconds(_ body: () throws -> Void) throws -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = now()
        try body()
        return now() - start
    }
}
