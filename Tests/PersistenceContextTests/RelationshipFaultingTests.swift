import Foundation
import PersistenceTestSupport
import Testing
@testable import Persistence
@testable import PersistenceContext

@Suite struct RelationshipFaultingTests {
    /// Live objects the context has registered.
    private func live(_ context: ManagedObjectContext) -> Int {
        context.registry.values.filter { $0.object != nil }.count
    }

    @Test func walkingAToManyLoadsOnlyItsOwnRows() throws {
        let store = TemporaryStore()
        let n = 20_000
        do {
            let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
            let big = try context.make("Tag", "big")
            let other = try context.make("Tag", "other")
            var bigBooks: [ManagedObject] = []
            var otherBooks: [ManagedObject] = []
            for i in 0..<n {
                let book = try context.make("Book", "b\(i)")
                if i % 10 == 0 { bigBooks.append(book) } else { otherBooks.append(book) }
            }
            // One assignment each: adding one by one costs a membership test per add.
            try big.setValue(bigBooks, forKey: "books")
            try other.setValue(otherBooks, forKey: "books")
            try context.save()
        }
        let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
        let big = try context.named("Tag", "big")
        #expect(live(context) == 1)
        var walked = 0
        do {
            let books = big.objects(forKey: "books")
            for book in books where (book["title"] as? String)?.hasPrefix("b") == true { walked += 1 }
            #expect(live(context) == 1 + n / 10, "only the tag and its own books are registered")
        }
        #expect(walked == n / 10)
        // Saving a change to another object does not load its (unconstrained) to-many.
        let other = try context.named("Tag", "other")
        other["name"] = "renamed"
        try context.save()
        #expect(live(context) == 2 + n / 10, "the other tag's books were not loaded")
        // Dropping the relationship lets its objects go: the registry holds them weakly.
        context.refresh(big, mergeChanges: false)
        #expect(live(context) == 2, "the two tags")
        // IDs alone make no objects.
        let ids = big.objectIDs(forRelationshipNamed: "books")
        #expect(ids.count == n / 10)
        #expect(live(context) == 2)
        // Touching them one at a time keeps memory bounded: each is released after use.
        var titles = 0
        for id in ids where try context.existingObject(with: id)["title"] != nil { titles += 1 }
        #expect(titles == n / 10)
        #expect(live(context) <= 3)
    }
}
