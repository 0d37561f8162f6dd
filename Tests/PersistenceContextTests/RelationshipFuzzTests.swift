import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// Thousands of random relationship edits across one-to-many, many-to-many, inverse-less,
/// ordered and reflexive relationships, with deletes: after every edit both sides agree in
/// memory, and after every round the store, reopened, holds exactly what memory held.
@Suite struct RelationshipFuzzTests {
    static let entities = ["Author", "Book", "Tag", "Chapter", "Playlist", "Song", "Employee"]

    /// Live objects by entity, in a stable order.
    struct Pools {
        var objects: [String: [ManagedObject]] = [:]
        /// Numbers new objects' names: carried across reopenings so names stay unique, and
        /// deterministic so that a seed always makes the same edits.
        var next = 0

        init(_ context: ManagedObjectContext, next: Int = 0) throws {
            self.next = next
            for entity in RelationshipFuzzTests.entities {
                objects[entity] = try context.fetch(FetchRequest(entityName: entity)).sorted { key($0) < key($1) }
            }
        }

        subscript(_ entity: String) -> [ManagedObject] { objects[entity] ?? [] }

        mutating func pick(_ entity: String, _ random: inout SplitMix64) -> ManagedObject? {
            self[entity].randomElement(using: &random)
        }

        mutating func prune() {
            for (entity, list) in objects { objects[entity] = list.filter { !$0.isDeleted && $0.managedObjectContext != nil } }
        }

        mutating func add(_ context: ManagedObjectContext, _ entity: String) throws {
            next += 1
            objects[entity, default: []].append(try context.make(entity, "\(entity)\(next)"))
        }
    }

    static func key(_ object: ManagedObject) -> String { names([object])[0] }

    /// Every relationship of every live object, as names (sorted unless ordered); deleted
    /// destinations still held in memory are left out, as the store no longer has them.
    static func snapshot(_ context: ManagedObjectContext) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for entity in entities {
            for object in try context.fetch(FetchRequest(entityName: entity)) {
                for case .relationship(let r) in object.schema.properties {
                    let linked = r.isToMany
                        ? object.objects(forKey: r.name) : (object.object(forKey: r.name).map { [$0] } ?? [])
                    let live = names(linked.filter { !$0.isDeleted && $0.managedObjectContext != nil })
                    result["\(key(object)).\(r.name)"] = r.isOrdered ? live : live.sorted()
                }
            }
        }
        return result
    }

    /// Both sides of every relationship with an inverse agree; no to-many holds an object twice.
    static func checkInverses(_ pools: Pools) {
        for list in pools.objects.values {
            for object in list {
                for case .relationship(let r) in object.schema.properties {
                    let linked = r.isToMany
                        ? object.objects(forKey: r.name) : (object.object(forKey: r.name).map { [$0] } ?? [])
                    #expect(Set(linked.map(ObjectIdentifier.init)).count == linked.count, "\(key(object)).\(r.name) holds duplicates")
                    guard let inverse = r.inverseName else { continue }
                    for d in linked where !d.isDeleted && d.managedObjectContext != nil {
                        let back = d.relationship(at: d.schema.propertyIndex[inverse]!).isToMany
                            ? d.objects(forKey: inverse) : (d.object(forKey: inverse).map { [$0] } ?? [])
                        #expect(back.contains { $0 === object }, "\(key(object)).\(r.name) has \(key(d)), whose \(inverse) lacks it")
                    }
                }
            }
        }
    }

    static func edit(_ context: ManagedObjectContext, _ pools: inout Pools, _ random: inout SplitMix64) throws {
        func pick(_ entity: String) -> ManagedObject? { pools.pick(entity, &random) }
        func index(_ count: Int) -> Int { Int.random(in: 0...max(0, count), using: &random) }
        switch Int.random(in: 0..<22, using: &random) {
        case 0: pick("Book")?.setObject(Bool.random(using: &random) ? nil : pick("Author"), forKey: "author")
        case 1: if let a = pick("Author"), let b = pick("Book") { a.addObject(b, forKey: "books") }
        case 2: if let a = pick("Author"), let b = a.objects(forKey: "books").sorted(by: { key($0) < key($1) }).randomElement(using: &random) { a.removeObject(b, forKey: "books") }
        case 3: if let b = pick("Book"), let t = pick("Tag") { b.addObject(t, forKey: "tags") }
        case 4: if let t = pick("Tag"), let b = pick("Book") { t.addObject(b, forKey: "books") }
        case 5: if let b = pick("Book"), let t = b.objects(forKey: "tags").sorted(by: { key($0) < key($1) }).randomElement(using: &random) { b.removeObject(t, forKey: "tags") }
        case 6: if let t = pick("Tag"), let b = t.objects(forKey: "books").sorted(by: { key($0) < key($1) }).randomElement(using: &random) { t.removeObject(b, forKey: "books") }
        case 7: if let a = pick("Book"), let b = pick("Book") { a.addObject(b, forKey: "related") }
        case 8: if let a = pick("Book"), let b = a.objects(forKey: "related").sorted(by: { key($0) < key($1) }).randomElement(using: &random) { a.removeObject(b, forKey: "related") }
        case 9: pick("Chapter")?.setObject(Bool.random(using: &random) ? nil : pick("Book"), forKey: "book")
        case 10:
            if let b = pick("Book"), let c = pick("Chapter") {
                let count = b.objects(forKey: "chapters").filter { $0 !== c }.count
                try b.insertObject(c, at: index(count), forKey: "chapters")
            }
        case 11:
            if let b = pick("Book") {
                let count = b.objects(forKey: "chapters").count
                if count > 0 { try b.moveObject(at: index(count - 1), to: index(count - 1), forKey: "chapters") }
            }
        case 12:
            if let b = pick("Book") {
                let count = b.objects(forKey: "chapters").count
                if count > 0 { try b.removeObject(at: index(count - 1), forKey: "chapters") }
            }
        case 13:
            if let p = pick("Playlist"), let s = pick("Song") {
                let count = p.objects(forKey: "songs").filter { $0 !== s }.count
                try p.insertObject(s, at: index(count), forKey: "songs")
            }
        case 14:
            if let p = pick("Playlist") {
                let count = p.objects(forKey: "songs").count
                if count > 0 { try p.moveObject(at: index(count - 1), to: index(count - 1), forKey: "songs") }
            }
        case 15:
            if let p = pick("Playlist") {
                let count = p.objects(forKey: "songs").count
                if count > 0 { try p.removeObject(at: index(count - 1), forKey: "songs") }
            }
        case 16: if let s = pick("Song"), let p = pick("Playlist") { s.addObject(p, forKey: "playlists") }
        case 17:
            if let s = pick("Song") {
                let count = s.objects(forKey: "playlists").count
                guard count > 0 else { break }
                if Bool.random(using: &random) {
                    try s.moveObject(at: index(count - 1), to: index(count - 1), forKey: "playlists")
                } else {
                    try s.removeObject(at: index(count - 1), forKey: "playlists")
                }
            }
        case 18: pick("Employee")?.setObject(Bool.random(using: &random) ? nil : pick("Employee"), forKey: "manager")
        case 19:
            if let a = pick("Employee"), let b = pick("Employee") {
                let key = ["friends", "mentors", "mentees"].randomElement(using: &random)!
                if Bool.random(using: &random) { a.addObject(b, forKey: key) } else { a.removeObject(b, forKey: key) }
            }
        case 20:
            // Delete one object (books cascade to their chapters) and make a new one.
            let entity = ["Book", "Tag", "Song", "Employee", "Chapter", "Playlist", "Author"].randomElement(using: &random)!
            if let victim = pick(entity) {
                context.delete(victim)
                pools.prune()
                try pools.add(context, entity)
            }
        default:
            let entity = entities.randomElement(using: &random)!
            try pools.add(context, entity)
        }
    }

    @Test(arguments: [0x0DE1_E7E5, 2, 3] as [UInt64])
    func randomEditsKeepBothSidesAndTheStoreInStep(seed: UInt64) throws {
        let store = TemporaryStore()
        var random = SplitMix64(seed: seed)
        var container = try PersistentContainer(model: relationshipModel(), storeURL: store.url)
        var pools = try Pools(container.viewContext)
        for entity in Self.entities { for _ in 0..<6 { try pools.add(container.viewContext, entity) } }
        var edits = 0
        for round in 0..<6 {
            let context = container.viewContext
            for _ in 0..<500 {
                try Self.edit(context, &pools, &random)
                edits += 1
            }
            let before: [String: [String]]
            if round % 2 == 0 {
                Self.checkInverses(pools)
                before = try Self.snapshot(context)
                try context.save()
                #expect(try Self.snapshot(context) == before, "round \(round): saving changed memory")
            } else {
                // Save with unloaded sides still holding pending edits, then check that the
                // sides loaded from the store agree with the ones kept in memory.
                try context.save()
                Self.checkInverses(pools)
                before = try Self.snapshot(context)
            }
            container = try PersistentContainer(model: relationshipModel(), storeURL: store.url)
            let after = try Self.snapshot(container.viewContext)
            #expect(after == before, "round \(round): the reopened store differs")
            if after != before {
                for key in Set(after.keys).union(before.keys).sorted() where after[key] != before[key] {
                    Issue.record("\(key): memory \(before[key] ?? []) store \(after[key] ?? [])")
                }
                return
            }
            pools = try Pools(container.viewContext, next: pools.next)
        }
        #expect(edits == 3_000)
        // The edits reached every kind of link.
        for table in ["Book_tags", "Book_related", "Book_chapters", "Playlist_songs", "Employee_friends", "Employee_mentees"] {
            #expect(try store.rows("SELECT count(*) FROM \(table)")[0][0].int64Value ?? 0 > 3, "\(table)")
        }
        #expect(try store.count("Book", relationshipModel(), where: "author != nil") > 3)
        #expect(try store.rows("SELECT max(c) FROM (SELECT count(*) AS c FROM Playlist_songs GROUP BY source)")[0][0].int64Value ?? 0 >= 3)
    }
}
