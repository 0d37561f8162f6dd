import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite
import Testing

/// An ordered one-to-many (its order in the destination's `Z_FOK_` column) and binary values
/// that allow external storage (a marker byte in the row; large values in
/// `.<store>_SUPPORT/_EXTERNAL_DATA/`), written through the Core Data store, checked with
/// plain SQL in Core Data's layout, and read back after reopening.
@Suite struct CoreDataOrderedAndExternalDataTests {
    /// Albums with photos in order; each photo's image may be kept outside the store.
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Album") {
                Attribute("name", .string)
                Relationship("photos", to: "Photo", inverse: "album", toMany: true, ordered: true, deleteRule: .cascade)
            }
            Entity("Photo") {
                Attribute("caption", .string)
                Attribute("image", .binaryData, allowsExternalStorage: true)
                Relationship("album", to: "Album", inverse: "photos")
            }
        }
    }

    /// A new store in a folder of its own.
    struct Store {
        let folder: URL
        let url: URL
        var external: URL { folder.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA") }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("cd-external-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            url = folder.appendingPathComponent("Photos.sqlite")
            try CoreDataStore.create(model: CoreDataOrderedAndExternalDataTests.model(), at: url)
        }

        func open() throws -> PersistentContainer {
            try PersistentContainer(model: CoreDataOrderedAndExternalDataTests.model(), storeURL: url)
        }

        func sql(_ query: String) throws -> [[SQLiteValue]] {
            let database = try Database(path: url.path, mode: .readOnly)
            defer { try? database.close() }
            return try database.query(query)
        }

        func externalFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: external.path)) ?? []).sorted()
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// `count` bytes of a pattern that names `seed`.
    static func bytes(_ count: Int, _ seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed })
    }

    static let large = bytes(300_000, 7)
    static let small = bytes(1_000, 9)

    /// An album "Trip" with photos a, b, c in that order: a's image large, b's small, c none.
    static func fill(_ store: Store) throws {
        let container = try store.open()
        defer { try? container.persistentStoreCoordinator.close() }
        let context = container.viewContext
        let album = try context.insertObject(forEntityName: "Album")
        try album.setValue("Trip", forKey: "name")
        for (caption, image) in [("a", large), ("b", small), ("c", nil)] as [(String, Data?)] {
            let photo = try context.insertObject(forEntityName: "Photo")
            try photo.setValue(caption, forKey: "caption")
            try photo.setValue(image, forKey: "image")
            album.addObject(photo, forKey: "photos")
        }
        try context.save()
    }

    static func album(_ context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Album")).first)
    }

    @Test func theOrderIsKeptInTheDestinationsOrderColumnAndReadBack() throws {
        let store = try Store()
        defer { store.remove() }
        try Self.fill(store)
        let rows = try store.sql("SELECT ZCAPTION, Z_FOK_ALBUM, ZALBUM FROM ZPHOTO ORDER BY Z_PK")
        #expect(rows.map { "\($0[0].stringValue ?? "") \($0[1].int64Value ?? -1) \($0[2].int64Value ?? -1)" } == ["a 1 1", "b 2 1", "c 3 1"])

        // Reopened, reordered (c to the front) and saved.
        do {
            let container = try store.open()
            defer { try? container.persistentStoreCoordinator.close() }
            let album = try Self.album(container.viewContext)
            #expect(album.objects(forKey: "photos").map { $0.value(forKey: "caption") as? String } == ["a", "b", "c"])
            try album.moveObject(at: 2, to: 0, forKey: "photos")
            try container.viewContext.save()
        }
        let order = try store.sql("SELECT ZCAPTION FROM ZPHOTO ORDER BY Z_FOK_ALBUM").map { $0[0].stringValue ?? "" }
        #expect(order == ["c", "a", "b"])
        let container = try store.open()
        defer { try? container.persistentStoreCoordinator.close() }
        let album = try Self.album(container.viewContext)
        #expect(album.objects(forKey: "photos").map { $0.value(forKey: "caption") as? String } == ["c", "a", "b"])
    }

    @Test func aLargeValueGoesToAFileAndASmallOneStaysInItsRowBehindItsMarker() throws {
        let store = try Store()
        defer { store.remove() }
        try Self.fill(store)
        let rows = try store.sql("SELECT ZCAPTION, ZIMAGE FROM ZPHOTO ORDER BY Z_PK")
        let a = try #require(rows.first?[1].dataValue)
        #expect(a.first == 2, "the external marker")
        let name = String(decoding: a.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
        #expect(UUID(uuidString: name) != nil && a.last == 0, "a UUID's name, NUL-terminated")
        #expect(store.externalFiles() == [name])
        #expect(try Data(contentsOf: store.external.appendingPathComponent(name)) == Self.large)
        #expect(rows[1][1].dataValue == Data([1]) + Self.small, "the inline marker, then the bytes")
        #expect(rows[2][1] == .null)

        // Reopened: the exact bytes, from the file and from the row.
        let container = try store.open()
        defer { try? container.persistentStoreCoordinator.close() }
        let photos = try Self.album(container.viewContext).objects(forKey: "photos")
        #expect(photos.map { $0.value(forKey: "image") as? Data } == [Self.large, Self.small, nil])
    }

    @Test func aReplacedOrDeletedValuesFileGoesOnceTheSaveCommits() throws {
        let store = try Store()
        defer { store.remove() }
        try Self.fill(store)
        let first = store.externalFiles()
        #expect(first.count == 1)
        let container = try store.open()
        defer { try? container.persistentStoreCoordinator.close() }
        let context = container.viewContext
        let photos = try Self.album(context).objects(forKey: "photos")
        // b's small value becomes a large one; a's large one is replaced by another.
        let other = Self.bytes(200_000, 3)
        try photos[0].setValue(other, forKey: "image")
        try photos[1].setValue(Self.large, forKey: "image")
        try context.save()
        let second = store.externalFiles()
        #expect(second.count == 2 && Set(second).isDisjoint(with: first), "\(second)")
        let stored = try Set(second.map { try Data(contentsOf: store.external.appendingPathComponent($0)) })
        #expect(stored == [other, Self.large])

        // Deleting the album cascades to its photos: their files go.
        context.delete(try Self.album(context))
        try context.save()
        #expect(store.externalFiles() == [])
        #expect(try store.sql("SELECT count(*) FROM ZPHOTO").first?.first?.int64Value == 0)
    }

    @Test func aSaveThatFailsLeavesNoNewFile() throws {
        let store = try Store()
        defer { store.remove() }
        try Self.fill(store)
        let before = store.externalFiles()
        // A trigger refuses the row after its value was written to a file.
        let database = try Database(path: store.url.path, mode: .mustExist)
        try database.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON ZPHOTO WHEN NEW.ZCAPTION = 'refused' BEGIN SELECT RAISE(ABORT, 'refused'); END")
        try database.close()
        let container = try store.open()
        defer { try? container.persistentStoreCoordinator.close() }
        let context = container.viewContext
        let photo = try context.insertObject(forEntityName: "Photo")
        try photo.setValue("refused", forKey: "caption")
        try photo.setValue(Self.bytes(150_000, 1), forKey: "image")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(store.externalFiles() == before)
        #expect(try store.sql("SELECT count(*) FROM ZPHOTO").first?.first?.int64Value == 3)
    }
}
