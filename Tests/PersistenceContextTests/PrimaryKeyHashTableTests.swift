import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
@testable import PersistenceContext

/// The registry's hash table (open addressing, backward-shift deletion) against a
/// `Dictionary` doing the same operations.
@Suite struct PrimaryKeyHashTableTests {
    /// A few live objects to register; the table does not care which object is under a key.
    private func objects(_ count: Int) throws -> (ManagedObjectContext, [ManagedObject]) {
        let (_, context) = try BookFixture.make()
        let schema = try #require(context.model.schema(for: "Book"))
        let objects = (0..<count).map { n in
            context.makeObject(
                schema: schema,
                id: ObjectID(entityName: "Book", rootName: "Book", storeIdentifier: "test", key: .temporary(UInt64(n))),
                isFault: true)
        }
        return (context, objects)
    }

    @Test(arguments: [
        ("random keys", 0 as UInt64),
        ("consecutive keys", 1 as UInt64),
        ("one key a group of sixteen", 16 as UInt64),
        ("keys sharing their low bits", 1 << 20 as UInt64),
    ])
    func matchesADictionaryThroughInsertsAndRemovals(_ shape: String, _ stride: UInt64) throws {
        let (context, objects) = try objects(16)
        var table = PrimaryKeyHashTable()
        var model: [UInt64: ObjectIdentifier] = [:]
        var random = SplitMix64(seed: 42 &+ stride)
        func key() -> UInt64 { stride == 0 ? random.next() % 5_000 : (random.next() % 5_000) &* stride }
        for step in 0..<40_000 {
            let k = key()
            switch random.next() % 5 {
            case 0, 1:
                let object = objects[Int(random.next() % 16)]
                table.set(RegistryEntry(object), forKey: k)
                model[k] = ObjectIdentifier(object)
            case 2:
                let found = table.lookUp(k)
                if let existing = model[k] {
                    #expect(found.object.map(ObjectIdentifier.init) == existing)
                } else {
                    #expect(found.object == nil)
                    table.insert(objects[step % 16], forKey: k, at: found.index)
                    model[k] = ObjectIdentifier(objects[step % 16])
                }
            case 3:
                // Removal only of the entry for the given object.
                let candidate = ObjectIdentifier(objects[Int(random.next() % 16)])
                table.remove(k, ifHolding: candidate)
                if model[k] == candidate { model[k] = nil }
            default:
                table.remove(k)
                model[k] = nil
            }
            if step % 997 == 0 {
                #expect(table.count == model.count)
                for (k, identity) in model { #expect(table[k]?.holds(identity) == true) }
            }
        }
        #expect(table.count == model.count)
        #expect(table.entries.count == model.count)
        for k in 0..<5_000 as Range<UInt64> {
            let probe = stride == 0 ? k : k &* stride
            #expect((table[probe] != nil) == (model[probe] != nil))
        }
        table.removeAll()
        #expect(table.count == 0 && table[1] == nil && table.entries.isEmpty)
        _ = context
    }
}
