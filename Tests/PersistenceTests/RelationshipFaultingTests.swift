import Foundation
import Testing
@testable import Persistence

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
        // Dropping the relationship lets its objects go: the registry holds them weakly.
        context.refresh(big, mergeChanges: false)
        #expect(live(context) == 1)
        // IDs alone make no objects.
        #expect(big.objectIDs(forRelationshipNamed: "books").count == n / 10)
    }
}
