import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// The contract's **Rows are values and keys** and **Keys** clauses, and `row(for:)`.
@Suite struct RowConformanceTests {
    /// Rows: a slot per property position of the row's own entity; a to-many is
    /// `toManyFault`; a to-one with a destination is `toOneFault` of an ID whose row exists.
    @Test(arguments: StoreFactories.all)
    func everyRowHasASlotPerPropertyOfItsOwnEntity(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        for entity in ["Author", "Book", "Tag", "Shelf"] {
            try library.store.forEachRow(FetchRequest(entityName: entity)) { row in
                let name = "\(row.schema.name)/\(row.serial)"
                #expect(row.slots.count == row.schema.properties.count, "\(name)")
                for (position, property) in row.schema.properties.enumerated() {
                    guard case .relationship(let relationship) = property else {
                        #expect(
                            row.slots[position].isValue, "\(name).\(property.name) holds a value")
                        continue
                    }
                    let slot = row.slots[position]
                    if relationship.isToMany {
                        #expect(
                            slot.isToManyFault, "\(name).\(relationship.name) is a to-many fault")
                    } else if case .toOneFault(let id?) = slot {
                        let destination = library.store.model.schema(
                            for: relationship.destinationEntityName)
                        #expect(
                            destination?.includes(id.entityName) == true,
                            "\(name).\(relationship.name)")
                        let destinationRow = try library.store.row(for: id)
                        #expect(destinationRow != nil, "\(name).\(relationship.name) names a row")
                    } else if !slot.isEmptyToOne {
                        // An empty to-one's case is `anEmptyToOneIsAFaultOfNoID`'s to check.
                        Issue.record(
                            "\(name).\(relationship.name) reads as \(slot.summary), not a to-one fault"
                        )
                    }
                }
                return true
            }
        }
        let ebookID = library.objects.books[4].objectID
        let ebook = try #require(try library.store.row(for: ebookID))
        #expect(ebook.schema.name == "Ebook", "a sub-entity's row has its own entity")
        #expect(ebook.value("megabytes") == .double(1.5))
    }

    /// Rows: a to-one without a destination is `toOneFault(nil)`; a store makes no other
    /// case than `value`, `toOneFault` and `toManyFault`.
    @Test(arguments: StoreFactories.all)
    func anEmptyToOneIsAFaultOfNoID(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let orphan = library.objects.books[8]  // every ninth book has no author
        let row = try #require(try library.store.row(for: orphan.objectID))
        let author = try #require(row.schema.propertyIndex["author"])
        guard case .toOneFault(nil) = row.slots[author] else {
            Issue.record("an empty to-one reads as \(row.slots[author])")
            return
        }
    }

    /// Rows: a to-one's fault holds the ID of the object saved as its destination.
    @Test(arguments: StoreFactories.all)
    func aToOneFaultNamesTheSavedDestination(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        for (n, book) in library.objects.books.enumerated() {
            let row = try #require(try library.store.row(for: book.objectID))
            let author = try #require(row.schema.propertyIndex["author"])
            let expected = Library.books[n].author.map { library.objects.authors[$0].objectID }
            switch row.slots[author] {
            case .toOneFault(let id): #expect(id == expected, "book \(n)")
            case let slot:
                #expect(slot.isEmptyToOne && expected == nil, "book \(n) reads as \(slot.summary)")
            }
        }
    }

    /// `row(for:)`: the row of an ID equals the row a fetch gave for it.
    @Test(arguments: StoreFactories.all)
    func rowForAnIDIsTheFetchedRow(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        try library.store.forEachRow(FetchRequest(entityName: "Book")) { fetched in
            let row = try #require(
                try library.store.row(for: fetched.objectID), "\(fetched.objectID)")
            #expect(row.primaryKey == fetched.primaryKey)
            #expect(row.schema.name == fetched.schema.name)
            #expect(row.objectID == fetched.objectID)
            #expect(row.slots.map(\.summary) == fetched.slots.map(\.summary), "\(fetched.objectID)")
            return true
        }
    }

    /// `row(for:)`: nil for a deleted object's ID, a key that never was, an unsaved
    /// object's ID, and an ID of another store.
    @Test(arguments: StoreFactories.all)
    func rowForAnIDWithoutARowIsNil(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let store = library.store
        let deleted = library.objects.books[3]
        let deletedID = deleted.objectID
        library.subject.context.delete(deleted)
        try library.subject.context.save()
        #expect(try store.row(for: deletedID) == nil, "deleted")

        let kept = library.objects.books[2].objectID
        let keptKey = try #require(kept.primaryKey)
        #expect(try store.row(for: kept) != nil)
        let scope = store.idScope(entityName: "Book", rootName: "Book")
        #expect(
            try store.row(for: ObjectID(scope: scope, key: .permanent(keptKey + 1_000_000))) == nil,
            "never was")
        #expect(try store.row(for: ObjectID(scope: scope, key: .temporary(1))) == nil, "unsaved")
        let elsewhere = ObjectID(
            entityName: "Book", rootName: "Book", storeIdentifier: store.identifier + "-another",
            key: .permanent(keptKey))
        #expect(try store.row(for: elsewhere) == nil, "another store's")
    }

    /// Keys: positive and unique across an entity hierarchy (a sub-entity shares its root's),
    /// and a deleted object's key is never given to a new one.
    @Test(arguments: StoreFactories.all)
    func keysArePositiveUniqueAndNeverReused(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let keys = try library.store.objectIDs(for: FetchRequest(entityName: "Book")).compactMap(
            \.primaryKey)
        #expect(keys.count == Library.books.count)
        #expect(keys.allSatisfy { $0 > 0 })
        #expect(Set(keys).count == keys.count)

        let context = library.subject.context
        let newest = try #require(
            library.objects.books.max { $0.objectID.primaryKey! < $1.objectID.primaryKey! })
        let freed = try #require(newest.objectID.primaryKey)
        context.delete(newest)
        try context.save()
        let next = try library.subject.insert("Book", ["n": Int64(100)])
        try context.save()
        let given = try #require(next.objectID.primaryKey)
        #expect(given != freed && !keys.contains(given), "key \(given) was given out before")
        #expect(try library.store.row(for: next.objectID)?.serial == 100)
    }
}

extension StoredSlot {
    var isValue: Bool {
        if case .value = self { return true }
        return false
    }

    /// Whether the slot is a to-one without a destination, in either case that can say so.
    var isEmptyToOne: Bool {
        switch self {
        case .toOneFault(nil), .toOne(nil): true
        default: false
        }
    }

    var isToManyFault: Bool {
        if case .toManyFault = self { return true }
        return false
    }

    /// The slot as text, to compare two reads of one row.
    var summary: String {
        switch self {
        case .value(let value): "value \(value)"
        case .toOneFault(let id): "toOneFault \(id.map(\.description) ?? "nil")"
        case .toOne(let object): "toOne \(object == nil ? "nil" : "object")"
        case .toManyFault: "toManyFault"
        case .toMany(let objects): "toMany \(objects.count)"
        }
    }
}
