import Foundation
import Testing

import Persistence

/// Unsaved objects whose sort keys tie come out of a fetch in insertion order, as saved ones
/// come out in key order.
@Suite struct UnsavedTieOrderTests {
    @Test func unsavedObjectsWithEqualSortKeysKeepInsertionOrder() throws {
        let model = ManagedObjectModel {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("number", .integer64)
            }
        }
        let context = try PersistentContainer(model: model, storeURL: nil).viewContext
        for number in 0..<60 {
            let book = try context.insertObject(forEntityName: "Book")
            try book.setValue("Same", forKey: "title")
            try book.setValue(Int64(number), forKey: "number")
        }
        let request = FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")])
        let numbers = try context.fetch(request).map { $0.value(forKey: "number") as? Int64 }
        #expect(numbers == (0..<60).map { Int64($0) })
    }
}
