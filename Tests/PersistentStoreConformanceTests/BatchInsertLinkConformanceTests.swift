import Foundation
import Persistence
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import Testing

/// Batch rows that set to-many relationships whose links the store keeps apart from rows
/// (`BatchInsertRow.setObjects(_:forKey:)`), on every store: the links are written after
/// the rows, in order for an ordered relationship, only for rows really written, and
/// registered destinations see them.
///
/// The model: `Volume.writers` ↔ `Writer.volumes`, a many-to-many ordered on the volume's
/// side (a catalogue's book with its ordered authors); `Volume.labels` ↔ `Label.volumes`,
/// an unordered many-to-many; `Volume.code` is unique.
@Suite struct BatchInsertLinkConformanceTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Volume") {
                Attribute("code", .string)
                Attribute("title", .string)
                Relationship("writers", to: "Writer", inverse: "volumes", toMany: true, ordered: true)
                Relationship("labels", to: "Label", inverse: "volumes", toMany: true)
                UniquenessConstraint("code")
            }
            Entity("Writer") {
                Attribute("name", .string)
                Relationship("volumes", to: "Volume", inverse: "writers", toMany: true)
            }
            Entity("Label") {
                Attribute("name", .string)
                Relationship("volumes", to: "Volume", inverse: "labels", toMany: true)
            }
        }
    }

    /// A store of the model with `count` saved writers (w0, w1, …) and labels (l0, l1, …).
    private static func stocked(_ factory: StoreFactory, count: Int = 4) throws -> (StoreUnderTest, [ManagedObject], [ManagedObject]) {
        let subject = try factory.make(model())
        let writers = try (0..<count).map { try subject.insert("Writer", ["name": "w\($0)"]) }
        let labels = try (0..<count).map { try subject.insert("Label", ["name": "l\($0)"]) }
        try subject.context.save()
        return (subject, writers, labels)
    }

    /// A context on the subject's store with nothing registered: what it reads comes from the store.
    private static func fresh(_ subject: StoreUnderTest) -> ManagedObjectContext {
        ManagedObjectContext(coordinator: subject.context.persistentStoreCoordinator, classes: [:])
    }

    /// The stored volumes by code, each with its writers' and labels' names (labels sorted).
    private static func stored(_ subject: StoreUnderTest) throws -> [String: (writers: [String], labels: [String])] {
        var result: [String: (writers: [String], labels: [String])] = [:]
        // Kept while the volumes load their relationships: an object does not keep its context.
        let context = fresh(subject)
        for volume in try context.fetch(FetchRequest(entityName: "Volume")) {
            let names = { (key: String) in volume.objects(forKey: key).compactMap { $0["name"] as? String } }
            result[volume["code"] as? String ?? "?"] = (names("writers"), names("labels").sorted())
        }
        return result
    }

    /// Every link as the destinations' side reads it: "w1>v3" for writer w1 of volume v3.
    private static func linksFromDestinations(_ subject: StoreUnderTest) throws -> [String] {
        let context = fresh(subject)
        var links: [String] = []
        for entity in ["Writer", "Label"] {
            for destination in try context.fetch(FetchRequest(entityName: entity)) {
                for volume in destination.objects(forKey: "volumes") {
                    links.append("\(destination["name"] as? String ?? "?")>\(volume["code"] as? String ?? "?")")
                }
            }
        }
        return links.sorted()
    }

    @Test(arguments: StoreFactories.all)
    func orderedAndUnorderedManyToManyLinksReadBackFromAFreshContext(_ factory: StoreFactory) throws {
        let (subject, writers, labels) = try Self.stocked(factory)
        // Orders that are neither key nor insertion order.
        let orders: [[Int]] = [[2, 0, 3], [1], [], [3, 2, 1, 0]]
        let request = BatchInsertRequest(entityName: "Volume", count: orders.count) { index, row in
            try row.setValue("v\(index)", forKey: "code")
            try row.setObjects(orders[index].map { writers[$0] }, forKey: "writers")
            // Through setValue, as an array.
            try row.setValue(index.isMultiple(of: 2) ? [labels[index + 1], labels[0]] : nil, forKey: "labels")
        }
        #expect(try subject.context.execute(request) == 4)

        let stored = try Self.stored(subject)
        #expect(stored.count == 4)
        for (index, order) in orders.enumerated() {
            #expect(stored["v\(index)"]?.writers == order.map { "w\($0)" }, "v\(index)")
        }
        #expect(stored["v0"]?.labels == ["l0", "l1"] && stored["v2"]?.labels == ["l0", "l3"])
        #expect(stored["v1"]?.labels == [] && stored["v3"]?.labels == [])
        #expect(
            try Self.linksFromDestinations(subject)
                == ["l0>v0", "l0>v2", "l1>v0", "l3>v2", "w0>v0", "w0>v3", "w1>v1", "w1>v3", "w2>v0", "w2>v3", "w3>v0", "w3>v3"])
    }

    @Test(arguments: StoreFactories.all)
    func rowsWrittenBySaveInsertingLinkToObjectsOfTheSameSave(_ factory: StoreFactory) throws {
        let (subject, writers, _) = try Self.stocked(factory, count: 1)
        let newcomer = try subject.insert("Writer", ["name": "new"])
        let request = BatchInsertRequest(entityName: "Volume", count: 2) { index, row in
            try row.setValue("v\(index)", forKey: "code")
            try row.setObjects([newcomer, writers[0]], forKey: "writers")
        }
        try subject.context.save(inserting: [request])
        let stored = try Self.stored(subject)
        #expect(stored["v0"]?.writers == ["new", "w0"] && stored["v1"]?.writers == ["new", "w0"], "\(stored)")
    }

    @Test(arguments: StoreFactories.all)
    func registeredDestinationsWhoseVolumesWereLoadedSeeTheNewLinks(_ factory: StoreFactory) throws {
        let (subject, writers, labels) = try Self.stocked(factory, count: 2)
        // Loaded (empty) before the rows are written.
        #expect(writers[0].objects(forKey: "volumes").isEmpty && labels[1].objects(forKey: "volumes").isEmpty)
        let request = BatchInsertRequest(entityName: "Volume", count: 3) { index, row in
            try row.setValue("v\(index)", forKey: "code")
            try row.setObjects([writers[1], writers[0]], forKey: "writers")
            if index == 1 { try row.setObjects([labels[1]], forKey: "labels") }
        }
        try subject.context.execute(request)
        #expect(writers[0].objects(forKey: "volumes").compactMap { $0["code"] as? String }.sorted() == ["v0", "v1", "v2"])
        #expect(labels[1].objects(forKey: "volumes").compactMap { $0["code"] as? String } == ["v1"])
        #expect(!subject.context.hasChanges)
    }

    /// The number of rows of every table of a store kept in an SQLite file (join tables
    /// included), read with plain SQL; nil for a store kept elsewhere.
    private static func rowCounts(_ subject: StoreUnderTest) throws -> [String: Int]? {
        guard let url = subject.store.url, FileManager.default.fileExists(atPath: url.path) else { return nil }
        let database = try Database(path: url.path)
        defer { try? database.close() }
        var counts: [String: Int] = [:]
        for row in try database.query("SELECT name FROM sqlite_master WHERE type = 'table'") {
            guard let name = row.first?.stringValue else { continue }
            counts[name] = Int(try database.scalar("SELECT count(*) FROM \"\(name)\"").int64Value ?? -1)
        }
        return counts
    }

    @Test(arguments: StoreFactories.all)
    func rowsSkippedForStoredUniqueValuesWriteNoLinks(_ factory: StoreFactory) throws {
        let (subject, writers, labels) = try Self.stocked(factory)
        let stored = try subject.insert("Volume", ["code": "v1", "title": "Stored"])
        try stored.setValue([writers[3]], forKey: "writers")
        try subject.context.save()
        for policy in [MergePolicy.mergeByPropertyStoreTrump, .rollback] {
            subject.context.mergePolicy = policy
            let request = BatchInsertRequest(entityName: "Volume", count: 4) { index, row in
                try row.setValue("v\(index)", forKey: "code")
                try row.setObjects([writers[index], writers[(index + 1) % 4]], forKey: "writers")
                try row.setObjects([labels[index]], forKey: "labels")
            }
            let before = try Self.rowCounts(subject)
            #expect(try subject.context.execute(request) == 4)
            if let before, let after = try Self.rowCounts(subject) {
                // Three new volumes with three links each the first time, nothing the second:
                // no join row was written for a skipped row (it would name a key without a row).
                let grown = after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
                #expect(grown == (policy == .rollback ? 0 : 12), "\(policy) \(before) \(after)")
            }
            let volumes = try Self.stored(subject)
            #expect(volumes.count == 4)
            // The stored v1 keeps its one writer and gains nothing; the others got theirs.
            #expect(volumes["v1"]?.writers == ["w3"] && volumes["v1"]?.labels == [], "\(policy) \(volumes)")
            #expect(volumes["v0"]?.writers == ["w0", "w1"] && volumes["v3"]?.writers == ["w3", "w0"], "\(policy) \(volumes)")
            // No link of the skipped row reached a destination either.
            #expect(
                try Self.linksFromDestinations(subject)
                    == ["l0>v0", "l2>v2", "l3>v3", "w0>v0", "w0>v3", "w1>v0", "w2>v2", "w3>v1", "w3>v2", "w3>v3"],
                "\(policy)")
        }
    }

    @Test(arguments: StoreFactories.all)
    func aConflictUnderTheErrorPolicyWritesNoRowAndNoLink(_ factory: StoreFactory) throws {
        let (subject, writers, _) = try Self.stocked(factory)
        try subject.insert("Volume", ["code": "v2"])
        try subject.context.save()
        let before = try Self.linksFromDestinations(subject)
        // Enough rows that the first chunk's rows and links are written before the conflict.
        let request = BatchInsertRequest(entityName: "Volume", count: 1200) { index, row in
            try row.setValue(index == 1100 ? "v2" : "n\(index)", forKey: "code")
            try row.setObjects([writers[index % 4]], forKey: "writers")
        }
        let error = try #require(throws: ConstraintConflictError.self) { try subject.context.execute(request) }
        #expect("\(error)".contains("row 1100 of the Volume batch insert"), "\(error)")
        #expect(try Self.stored(subject).keys.sorted() == ["v2"])
        #expect(try Self.linksFromDestinations(subject) == before)
        #expect(try Self.fresh(subject).count(for: FetchRequest(entityName: "Volume")) == 1)
    }

    /// A save of many new objects (more than a store writes in one statement) in which one
    /// deep in the save repeats a stored unique value: the conflict names that object, and
    /// nothing of the save is written.
    @Test(arguments: StoreFactories.all)
    func aSavedObjectRefusedDeepInALargeSaveIsNamedAndNothingIsWritten(_ factory: StoreFactory) throws {
        let (subject, writers, _) = try Self.stocked(factory)
        try subject.insert("Volume", ["code": "v2"])
        try subject.context.save()
        let before = try Self.linksFromDestinations(subject)
        var objects: [ManagedObject] = []
        for index in 0..<2_500 {
            let volume = try subject.insert("Volume", ["code": index == 2_100 ? "v2" : "n\(index)"])
            try volume.setValue([writers[index % 4]], forKey: "writers")
            objects.append(volume)
        }
        let error = try #require(throws: ConstraintConflictError.self) { try subject.context.save() }
        #expect(error.keys == ["code"] && error.values.count == 1 && error.values[0].contains("v2"), "\(error)")
        #expect(error.object == objects[2_100].objectID.description, "the refused object is named: \(error)")
        #expect(try Self.stored(subject).keys.sorted() == ["v2"])
        #expect(try Self.linksFromDestinations(subject) == before)
        #expect(subject.context.hasChanges, "the context keeps the save's changes")
    }

    @Test(arguments: StoreFactories.all)
    func rowsThatMayUpdateStoredOnesCannotSetLinks(_ factory: StoreFactory) throws {
        let (subject, writers, _) = try Self.stocked(factory)
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .overwrite] {
            subject.context.mergePolicy = policy
            let request = BatchInsertRequest(entityName: "Volume", count: 3) { index, row in
                try row.setValue("v\(index)", forKey: "code")
                try row.setObjects(index == 2 ? [writers[0]] : [], forKey: "writers")
            }
            let error = try #require(throws: ObjectAccessError.self) { try subject.context.execute(request) }
            #expect(error.key == "writers")
            #expect(error.reason.contains("the stored row keeps its own links"), "\(error)")
            #expect(error.reason.hasSuffix("(row 2 of the Volume batch insert)"), "\(error)")
            #expect(try Self.fresh(subject).count(for: FetchRequest(entityName: "Volume")) == 0)
        }
    }

    @Test(arguments: StoreFactories.all)
    func destinationsThatCannotBeLinkedAreRefusedNamingRowAndKey(_ factory: StoreFactory) throws {
        let (subject, writers, labels) = try Self.stocked(factory)
        let elsewhere = try #require(try Self.fresh(subject).fetch(FetchRequest(entityName: "Writer")).first)
        let unsaved = try subject.insert("Label", ["name": "unsaved"])
        subject.context.delete(writers[3])
        let cases: [(key: String, reason: String, objects: [ManagedObject])] = [
            ("writers", "the object belongs to another context", [writers[0], elsewhere]),
            ("writers", "the object is deleted", [writers[3]]),
            ("labels", "the object is inserted but not saved", [labels[0], unsaved]),
            ("writers", "expected Writer objects, got a Label", [labels[0]]),
            ("writers", "is listed twice", [writers[1], writers[0], writers[1]]),
        ]
        for (key, reason, objects) in cases {
            let request = BatchInsertRequest(entityName: "Volume", count: 3) { index, row in
                try row.setValue("v\(index)", forKey: "code")
                try row.setObjects(index == 1 ? objects : [writers[index]].filter { _ in key == "writers" }, forKey: key)
            }
            let error = try #require(throws: ObjectAccessError.self) { try subject.context.execute(request) }
            #expect(error.entity == "Volume" && error.key == key, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.reason.hasSuffix("(row 1 of the Volume batch insert)"), "\(error)")
            #expect(try Self.fresh(subject).count(for: FetchRequest(entityName: "Volume")) == 0)
            #expect(try Self.linksFromDestinations(subject).isEmpty)
        }
        let wrongType = BatchInsertRequest(entityName: "Volume", count: 1) { _, row in
            try row.setValue(writers[0], forKey: "writers")
        }
        let error = try #require(throws: ObjectAccessError.self) { try subject.context.execute(wrongType) }
        #expect(error.reason.contains("expected [ManagedObject], got "), "\(error)")
        #expect(unsaved.isInserted && writers[3].isDeleted && subject.context.hasChanges)
    }

    @Test(arguments: StoreFactories.trackingHistory)
    func historyRecordsTheWrittenRowsAsInsertsAndNothingForSkippedOnes(_ factory: StoreFactory) throws {
        let make = try #require(factory.makeTrackingHistory)
        let subject = try make(Self.model())
        let writer = try subject.insert("Writer", ["name": "w0"])
        try subject.insert("Volume", ["code": "v1"])
        try subject.context.save()
        let token = try subject.store.currentHistoryToken()
        subject.context.mergePolicy = .mergeByPropertyStoreTrump
        let request = BatchInsertRequest(entityName: "Volume", count: 3) { index, row in
            try row.setValue("v\(index)", forKey: "code")
            try row.setObjects([writer], forKey: "writers")
        }
        try subject.context.execute(request)
        let history = try subject.store.history(after: .token(token))
        #expect(history.count == 1)
        let changes = history.first?.changes ?? []
        let volumes = try Self.fresh(subject).fetch(FetchRequest(entityName: "Volume"))
        let written = Set(volumes.filter { $0["code"] as? String != "v1" }.map(\.objectID))
        #expect(written.count == 2)
        #expect(Set(changes.map(\.changedObjectID)) == written)
        #expect(changes.allSatisfy { $0.changeType == .insert })
    }
}
