import Foundation
import Persistence
import PersistenceModel
import PersistenceStore

/// The `Library` saved in a factory's store, beside the same library as unsaved objects of
/// an in-memory context: the answer `PredicateEvaluator` and `FetchSorter` give in memory,
/// which the contract says a store's fetch must give.
///
/// Each unsaved author and book holds, as `referenceKey`, the key the store gave the same
/// object, and in-memory fetches sort by it last: a store breaks ties by key, and unsaved
/// objects have none.
final class StoredLibrary {
    /// The store under test, holding the saved library.
    let subject: StoreUnderTest
    /// The saved objects, by serial number, in the subject's context.
    let objects: Library.Objects
    /// A context whose objects are the library unsaved: fetches there are answered in memory.
    let reference: ManagedObjectContext
    private let referenceContainer: PersistentContainer
    /// The unsaved objects, by serial number.
    private let referenceObjects: Library.Objects

    /// Makes a store with `factory` and saves the library in it.
    init(_ factory: StoreFactory) throws {
        subject = try factory.make(ConformanceModel.make())
        let objects = try Library.insert(into: subject.context)
        try subject.context.save()
        self.objects = objects
        referenceContainer = try PersistentContainer(model: ConformanceModel.make(), storeURL: nil)
        reference = referenceContainer.viewContext
        referenceObjects = try Library.insert(into: reference)
        for (saved, unsaved) in zip(
            objects.authors + objects.books, referenceObjects.authors + referenceObjects.books)
        {
            try unsaved.setValue(saved.objectID.primaryKey, forKey: "referenceKey")
        }
    }

    /// Makes the same changes to the saved objects, then saves them, and to the unsaved ones.
    func change(_ body: (ManagedObjectContext, Library.Objects) throws -> Void) throws {
        try body(subject.context, objects)
        try subject.context.save()
        try body(reference, referenceObjects)
    }

    /// The store under test.
    var store: any PersistentStore { subject.store }

    /// The serial numbers of the objects `request` fetches in memory, in order.
    func expectedSerials(_ request: FetchRequest) throws -> [Int64] {
        try reference.fetch(inKeyOrder(request)).map(\.serial)
    }

    /// `request` with the reference's stand-in for the store's keys as its last sort key.
    func inKeyOrder(_ request: FetchRequest) -> FetchRequest {
        guard reference.model.schema(for: request.entityName)?.propertyIndex["referenceKey"] != nil
        else {
            return request
        }
        var ordered = request
        ordered.sortDescriptors.append(SortKey("referenceKey"))
        return ordered
    }

    /// The objects `request` fetches in memory, in order, each as its entity and serial
    /// number (`Ebook 4`).
    func expectedObjects(_ request: FetchRequest) throws -> [String] {
        try reference.fetch(inKeyOrder(request)).map { "\($0.entityName) \($0.serial)" }
    }

    /// The rows the store fetches for `request`, in order, each as its entity and serial
    /// number (`Ebook 4`).
    func storedObjects(_ request: FetchRequest) throws -> [String] {
        var objects: [String] = []
        try store.forEachRow(request) { row in
            objects.append("\(row.schema.name) \(row.serial)")
            return true
        }
        return objects
    }

    /// The serial numbers of the rows the store fetches for `request`, in order.
    func storedSerials(_ request: FetchRequest) throws -> [Int64] {
        var serials: [Int64] = []
        try store.forEachRow(request) { row in
            serials.append(row.serial)
            return true
        }
        return serials
    }

    /// The unsaved book with serial number `n`.
    func referenceBook(_ n: Int) -> ManagedObject { referenceObjects.books[n] }
}

extension ManagedObject {
    /// The object's serial number `n` (-1 when it has none).
    var serial: Int64 { value(forKey: "n", as: Int64.self) ?? -1 }
}

extension StoreRow {
    /// The ID of the row's object, made from the row's own scope and key.
    var objectID: ObjectID { ObjectID(scope: idScope, key: .permanent(primaryKey)) }

    /// The row's value of the attribute `key` (nil when the entity has no such attribute or
    /// the slot is not a value).
    func value(_ key: String) -> AttributeValue? {
        guard let position = schema.propertyIndex[key], case .value(let value) = slots[position]
        else { return nil }
        return value
    }

    /// The row's serial number `n` (-1 when it has none).
    var serial: Int64 {
        guard case .integer(let n) = value("n") else { return -1 }
        return n
    }
}
