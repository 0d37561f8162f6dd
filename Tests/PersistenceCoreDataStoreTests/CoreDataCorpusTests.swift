import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite
import Testing

/// Every store of the corpus Apple's Core Data wrote (`CoreDataCorpus`), opened from its
/// compiled model and from its model file, each object read checked against its row read
/// through plain SQL, then changed on a copy and checked in Core Data's bookkeeping. A store
/// that cannot be supported must be refused in one line with the file as it was.
@Suite struct CoreDataCorpusTests {
    /// The corpus has stores to test (the folder was found).
    @Test func theCorpusHasStoresFromSeveralProjects() {
        let names = CoreDataCorpus.storeNames
        #expect(names.count >= 10)
        #expect(Set(names.map { $0.split(separator: "-").first ?? "" }).count >= 4)
    }

    /// Opened with the model Core Data compiled into it, every object of every entity reads
    /// as its row; a store without a compiled model is refused in one line, untouched.
    @Test(arguments: CoreDataCorpus.storeNames)
    func readsEveryObjectFromTheCompiledModel(name: String) throws {
        let copy = try CoreDataCorpus.Copy(name)
        defer { copy.remove() }
        let hasCache = try !CoreDataCorpus.sql(copy.storeURL, "SELECT name FROM sqlite_master WHERE name = 'Z_MODELCACHE'").isEmpty
        let before = copy.snapshot()
        guard hasCache else {
            let error = #expect(throws: (any Error).self) { try CoreDataStore.storedModel(at: copy.storeURL) }
            let message = error.map { "\($0)" } ?? ""
            #expect(message.contains("Z_MODELCACHE") && !message.contains("\n"))
            #expect(copy.snapshot() == before)
            return
        }
        let model = try CoreDataStore.storedModel(at: copy.storeURL)
        let container = try PersistentContainer(model: model, storeURL: copy.storeURL)
        try Self.checkEveryObject(in: container, storeURL: copy.storeURL)
        try container.persistentStoreCoordinator.close()
    }

    /// Opened with a version of its project's model file, the store reads as its rows.
    @Test(arguments: CoreDataCorpus.storeNames.filter { !CoreDataCorpus.modelBundles(for: $0).isEmpty })
    func readsEveryObjectWithItsModelFile(name: String) throws {
        let copy = try CoreDataCorpus.Copy(name)
        defer { copy.remove() }
        var opened = false
        var refusals: [String] = []
        for bundle in CoreDataCorpus.modelBundles(for: name) {
            for version in try ManagedObjectModel.versionNames(in: bundle) where !opened {
                let model = try ManagedObjectModel(contentsOf: bundle, version: version)
                let container: PersistentContainer
                do { container = try PersistentContainer(model: model, storeURL: copy.storeURL) } catch {
                    refusals.append("\(version): \(error)")
                    continue
                }
                opened = true
                try Self.checkEveryObject(in: container, storeURL: copy.storeURL)
                try container.persistentStoreCoordinator.close()
            }
        }
        #expect(opened, "no version of the model opens \(name): \(refusals)")
        #expect(refusals.allSatisfy { !$0.contains("\n") })
    }

    /// On a copy, an edit and an insert are written as Core Data keeps them: `Z_OPT` bumped,
    /// `Z_MAX` advanced for the new row, `Z_METADATA` as it was; the store reopens. Where Core
    /// Data records its history, the save is one more transaction there, and the history
    /// entities' `Z_MAX` stay equal to their tables' last keys.
    @Test(arguments: CoreDataCorpus.storeNames)
    func writesAsCoreDataKeepsItsBookkeeping(name: String) throws {
        let copy = try CoreDataCorpus.Copy(name)
        defer { copy.remove() }
        let hasCache = try !CoreDataCorpus.sql(copy.storeURL, "SELECT name FROM sqlite_master WHERE name = 'Z_MODELCACHE'").isEmpty
        let model: ManagedObjectModel
        if hasCache {
            model = try CoreDataStore.storedModel(at: copy.storeURL)
        } else {
            // A store without a compiled model is written with the first version of its model
            // file that opens it.
            var found: ManagedObjectModel?
            for bundle in CoreDataCorpus.modelBundles(for: name) {
                for version in try ManagedObjectModel.versionNames(in: bundle) where found == nil {
                    let candidate = try ManagedObjectModel(contentsOf: bundle, version: version)
                    if let container = try? PersistentContainer(model: candidate, storeURL: copy.storeURL) {
                        try container.persistentStoreCoordinator.close()
                        found = candidate
                    }
                }
            }
            model = try #require(found, "no model opens \(name)")
        }
        let metadata = "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA"
        let keys = "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        let metadataBefore = try CoreDataCorpus.sql(copy.storeURL, metadata)
        let keysBefore = try CoreDataCorpus.sql(copy.storeURL, keys)
        let storedNumbers = Dictionary(uniqueKeysWithValues: keysBefore.map { ($0[1].stringValue ?? "", $0[0].int64Value ?? 0) })
        // The entities' numbers, a renamed entity's under its former name in a migrated store.
        var numbers: [String: Int64] = [:]
        var storedNames: [String: String] = [:]
        for entity in model.entities {
            let stored = storedNumbers[entity.name] != nil ? entity.name : entity.renamingIdentifier ?? entity.name
            numbers[entity.name] = storedNumbers[stored]
            storedNames[entity.name] = stored
        }
        let storeBefore = copy.snapshot()[0]
        let recordsHistory = !(try CoreDataCorpus.sql(copy.storeURL, "SELECT name FROM sqlite_master WHERE name = 'ATRANSACTION'")).isEmpty

        let container = try PersistentContainer(model: model, storeURL: copy.storeURL)
        let context = container.viewContext
        // The entity to insert into: concrete, every required attribute of a simple type and no
        // required relationship.
        let simple: Set<AttributeType> = [.string, .integer16, .integer32, .integer64, .double, .float, .boolean, .date, .uuid]
        let insertable = model.entities.first { entity in
            !entity.isAbstract && numbers[entity.name] != nil
                && Self.attributes(of: entity.name, in: model).allSatisfy { $0.isOptional || $0.isTransient || simple.contains($0.type) }
                && Self.relationships(of: entity.name, in: model).allSatisfy { $0.isOptional && $0.minCount == 0 }
        }
        // The object to edit: one with a string attribute.
        var edited: (entity: String, key: Int64, attribute: String)?
        for entity in model.entities where edited == nil {
            guard let attribute = entity.attributes.first(where: { $0.type == .string && !$0.isTransient && $0.regularExpressionString == nil && $0.minValueString == nil }) else { continue }
            var request = FetchRequest(entityName: entity.name)
            request.includesSubentities = false
            guard let object = try context.fetch(request).first, let key = object.objectID.primaryKey else { continue }
            try object.setValue("corpus edit", forKey: attribute.name)
            edited = (entity.name, key, attribute.name)
        }
        var inserted: ManagedObject?
        if let entity = insertable {
            let object = try context.insertObject(forEntityName: entity.name)
            for attribute in Self.attributes(of: entity.name, in: model) where !attribute.isOptional && !attribute.isTransient {
                let value: Any =
                    switch attribute.type {
                    case .string: "corpus"
                    case .boolean: false
                    case .date: Date(timeIntervalSinceReferenceDate: 800_000_000)
                    case .uuid: UUID()
                    case .double: 1.5
                    case .float: Float(1.5)
                    default: 1
                    }
                try object.setValue(value, forKey: attribute.name)
            }
            inserted = object
        }
        #expect(edited != nil || inserted != nil, "nothing to write in \(name)")
        let transactionsBefore = recordsHistory ? try CoreDataCorpus.sql(copy.storeURL, "SELECT count(*) FROM ATRANSACTION") : []
        try context.save()
        try container.persistentStoreCoordinator.close()
        #expect(copy.snapshot()[0] != storeBefore)

        #expect(try CoreDataCorpus.sql(copy.storeURL, metadata) == metadataBefore)
        var expectedKeys = keysBefore
        if let inserted, let entity = insertable {
            let root = Self.root(of: entity.name, in: model)
            let table = "Z" + root.uppercased()
            let index = try #require(expectedKeys.firstIndex { $0[1].stringValue == storedNames[root] })
            let newMax = (expectedKeys[index][3].int64Value ?? 0) + 1
            expectedKeys[index][3] = .integer(newMax)
            #expect(inserted.objectID.primaryKey == newMax)
            let row = try CoreDataCorpus.row(copy.storeURL, table: table, primaryKey: newMax)
            #expect(row["Z_ENT"]?.int64Value == numbers[entity.name])
            #expect(row["Z_OPT"]?.int64Value == 1)
        }
        // The model's entities as above; Core Data's history entities (a store that records
        // history) each counted up to its table's last key, the save one transaction more.
        let modelKeys = "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 15001 ORDER BY Z_ENT"
        #expect(try CoreDataCorpus.sql(copy.storeURL, modelKeys) == expectedKeys.filter { ($0[0].int64Value ?? 0) < 15001 })
        if recordsHistory {
            for (entity, table) in [("CHANGE", "ACHANGE"), ("TRANSACTION", "ATRANSACTION"), ("TRANSACTIONSTRING", "ATRANSACTIONSTRING")] {
                #expect(
                    try CoreDataCorpus.sql(copy.storeURL, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = '\(entity)' AND Z_ENT > 15000")
                        == CoreDataCorpus.sql(copy.storeURL, "SELECT max(Z_PK) FROM \(table)"))
            }
            let transactions = try CoreDataCorpus.sql(copy.storeURL, "SELECT count(*) FROM ATRANSACTION")
            #expect(transactions.first?.first?.int64Value == (transactionsBefore.first?.first?.int64Value ?? 0) + 1)
            let changes = try CoreDataCorpus.sql(
                copy.storeURL, "SELECT ZCHANGETYPE FROM ACHANGE WHERE ZTRANSACTIONID = (SELECT max(Z_PK) FROM ATRANSACTION)")
            #expect(changes.filter { $0.first?.int64Value == 0 }.count == (inserted == nil ? 0 : 1))
        } else {
            #expect(try CoreDataCorpus.sql(copy.storeURL, keys) == expectedKeys)
        }
        if let edited {
            let table = "Z" + Self.root(of: edited.entity, in: model).uppercased()
            let row = try CoreDataCorpus.row(copy.storeURL, table: table, primaryKey: edited.key)
            let editedColumn = Self.columnNames(in: model, numbers: storedNumbers)[edited.entity]?[edited.attribute]
            #expect(row[editedColumn ?? "Z" + edited.attribute.uppercased()]?.stringValue == "corpus edit")
            let optBefore = try CoreDataCorpus.sql(
                CoreDataCorpus.folder.appendingPathComponent(name), "SELECT Z_OPT FROM \(table) WHERE Z_PK = \(edited.key)")
            #expect(row["Z_OPT"]?.int64Value == (optBefore.first?.first?.int64Value ?? 0) + 1)
        }
        // The store reopens and reads what was saved.
        let reopened = try PersistentContainer(model: model, storeURL: copy.storeURL)
        try Self.checkEveryObject(in: reopened, storeURL: copy.storeURL)
        try reopened.persistentStoreCoordinator.close()
    }

    // MARK: - Classes the corpus found

    /// Core Data's migration renames an entity in `Z_MODELCACHE` but keeps its `Z_PRIMARYKEY`
    /// row under the former name: the store opens, from its compiled model and from the model
    /// file, with the entity read under its new name, and a new object of it is written with
    /// that row's number, the row's name left as Core Data keeps it.
    @Test(arguments: [true, false])
    func aStoreCoreDataMigratedOpensWithItsRenamedEntity(fromCompiledModel: Bool) throws {
        let copy = try CoreDataCorpus.Copy("CoreDataPlus-SampleModel_V2.sqlite")
        defer { copy.remove() }
        #expect(try CoreDataCorpus.sql(copy.storeURL, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'ExpensiveSportCar'") == [[.integer(3)]])
        let model =
            fromCompiledModel
            ? try CoreDataStore.storedModel(at: copy.storeURL)
            : try ManagedObjectModel(contentsOf: CoreDataFixture.modelURL, version: "SampleModel2")
        #expect(model.entity(named: "LuxuryCar")?.renamingIdentifier == "ExpensiveSportCar")
        let rows = try CoreDataCorpus.sql(copy.storeURL, "SELECT count(*) FROM ZCAR WHERE Z_ENT = 3").first?.first?.int64Value
        do {
            let container = try PersistentContainer(model: model, storeURL: copy.storeURL)
            var request = FetchRequest(entityName: "LuxuryCar")
            request.includesSubentities = false
            #expect(Int64(try container.viewContext.fetch(request).count) == rows)
            let car = try container.viewContext.insertObject(forEntityName: "LuxuryCar")
            try car.setValue("LUX-1", forKey: "numberPlate")
            try container.viewContext.save()
            try container.persistentStoreCoordinator.close()
        }
        #expect(try CoreDataCorpus.sql(copy.storeURL, "SELECT Z_PK, Z_ENT, Z_OPT FROM ZCAR WHERE ZNUMBERPLATE = 'LUX-1'") == [[.integer(126), .integer(3), .integer(1)]])
        #expect(
            try CoreDataCorpus.sql(copy.storeURL, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT IN (1, 3) ORDER BY Z_ENT")
                == [[.text("Car"), .integer(126)], [.text("ExpensiveSportCar"), .integer(0)]])
    }

    /// A to-many without a limit that Core Data archived with `NSMaxCount` -1 is read as
    /// to-many with no limit, so that the compiled model is valid and the store opens.
    @Test func aToManyArchivedWithMaxCountMinusOneHasNoLimit() throws {
        let url = CoreDataCorpus.folder.appendingPathComponent("CoreDataPlus-SampleModel2_V2.sqlite")
        let model = try CoreDataStore.storedModel(at: url)
        let books = try #require(model.entity(named: "Author")?.relationship(named: "books"))
        #expect(books.isToMany)
        #expect(books.maxCount == 0)
        #expect(model.entity(named: "Book")?.relationship(named: "pages")?.maxCount == 10000)
    }

    // MARK: - Checking objects against rows

    /// The root of `entity`'s hierarchy, whose table holds its rows.
    static func root(of entity: String, in model: ManagedObjectModel) -> String {
        var name = entity
        while let parent = model.entity(named: name)?.parentEntityName { name = parent }
        return name
    }

    /// `entity`'s attributes, inherited ones included.
    static func attributes(of entity: String, in model: ManagedObjectModel) -> [AttributeDescription] {
        guard let description = model.entity(named: entity) else { return [] }
        return (description.parentEntityName.map { attributes(of: $0, in: model) } ?? []) + description.attributes
    }

    /// `entity`'s relationships, inherited ones included.
    static func relationships(of entity: String, in model: ManagedObjectModel) -> [RelationshipDescription] {
        guard let description = model.entity(named: entity) else { return [] }
        return (description.parentEntityName.map { relationships(of: $0, in: model) } ?? []) + description.relationships
    }

    /// The column of each entity's stored attributes and to-ones, by entity and property, as
    /// Core Data names them (worked out here apart from the store's own layout): in entity
    /// number order, each entity's own properties take `Z<NAME>`, or that with the first
    /// number not taken (`ZTITLE1`) where another entity of the same table took it; inherited
    /// ones keep their ancestor's column. (The Apple Notes stores of the corpus have nine
    /// `account`s in one table: `ZACCOUNT`, `ZACCOUNT1` … `ZACCOUNT8`.)
    static func columnNames(in model: ManagedObjectModel, numbers: [String: Int64]) -> [String: [String: String]] {
        func number(_ entity: EntityDescription) -> Int64 {
            numbers[entity.name] ?? entity.renamingIdentifier.flatMap { numbers[$0] } ?? Int64.max
        }
        var columns: [String: [String: String]] = [:]
        var taken: [String: Set<String>] = [:]
        for entity in model.entities.sorted(by: { (number($0), $0.name) < (number($1), $1.name) }) {
            let table = root(of: entity.name, in: model)
            var own = entity.parentEntityName.flatMap { columns[$0] } ?? [:]
            let names = entity.attributes.filter { !$0.isTransient }.map(\.name)
                + entity.relationships.filter { !$0.isTransient && !$0.isToMany }.map(\.name)
            for name in names where own[name] == nil {
                let base = "Z" + name.uppercased()
                var column = base
                var suffix = 0
                while taken[table, default: []].contains(column) {
                    suffix += 1
                    column = base + String(suffix)
                }
                taken[table, default: []].insert(column)
                own[name] = column
            }
            columns[entity.name] = own
        }
        return columns
    }

    /// An integer a context gives as a value, as SQLite holds it.
    static func integer(_ value: Any?) -> Int64? {
        switch value {
        case let bool as Bool: bool ? 1 : 0
        case let int as any BinaryInteger: Int64(int)
        default: nil
        }
    }

    /// For every entity: the objects fetched are the rows whose `Z_ENT` is its number, and
    /// each object's attributes and relationships are its row's columns and join rows.
    static func checkEveryObject(in container: PersistentContainer, storeURL: URL) throws {
        let model = container.model
        let context = container.viewContext
        let numbers = Dictionary(
            uniqueKeysWithValues: try CoreDataCorpus.sql(storeURL, "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").map {
                ($0[0].stringValue ?? "", $0[1].int64Value ?? 0)
            })
        let tables = Set(try CoreDataCorpus.sql(storeURL, "SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].stringValue })
        let columnNames = columnNames(in: model, numbers: numbers)
        func column(_ entity: String, _ property: String) -> String {
            columnNames[entity]?[property] ?? "Z" + property.uppercased()
        }
        for entity in model.entities {
            // A migrated store keeps a renamed entity's row under its former name.
            let number = try #require(
                numbers[entity.name] ?? entity.renamingIdentifier.flatMap { numbers[$0] }, "\(entity.name) has no Z_PRIMARYKEY row")
            let table = "Z" + root(of: entity.name, in: model).uppercased()
            var request = FetchRequest(entityName: entity.name)
            request.includesSubentities = false
            let objects = try context.fetch(request)
            let rowCount = try CoreDataCorpus.sql(storeURL, "SELECT count(*) FROM \(table) WHERE Z_ENT = \(number)").first?.first?.int64Value
            #expect(Int64(objects.count) == rowCount, "\(entity.name): \(objects.count) objects, \(rowCount ?? -1) rows")
            for object in objects {
                let key = try #require(object.objectID.primaryKey)
                let row = try CoreDataCorpus.row(storeURL, table: table, primaryKey: key)
                let place = "\(entity.name) \(key)"
                for attribute in attributes(of: entity.name, in: model) where !attribute.isTransient {
                    guard let column = row[column(entity.name, attribute.name)] else { continue }
                    let value = object.value(forKey: attribute.name)
                    if column.isNull {
                        #expect(value == nil || value is NSNull, "\(place).\(attribute.name) is nil in its row")
                        continue
                    }
                    switch attribute.type {
                    case .string:
                        #expect(value as? String == column.stringValue, "\(place).\(attribute.name)")
                    case .integer16, .integer32, .integer64, .boolean:
                        #expect(integer(value) == column.int64Value, "\(place).\(attribute.name)")
                    case .double:
                        #expect(value as? Double == column.doubleValue, "\(place).\(attribute.name)")
                    case .float:
                        #expect((value as? Float).map(Double.init) == column.doubleValue.map { Double(Float($0)) }, "\(place).\(attribute.name)")
                    case .date:
                        #expect(value as? Date == column.doubleValue.map(Date.init(timeIntervalSinceReferenceDate:)), "\(place).\(attribute.name)")
                    case .uuid:
                        let uuid = column.dataValue.flatMap { bytes in
                            bytes.count == 16 ? bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) } : nil
                        }
                        #expect(value as? UUID == uuid, "\(place).\(attribute.name)")
                    case .binaryData where !attribute.allowsExternalBinaryDataStorage:
                        #expect(value as? Data == column.dataValue, "\(place).\(attribute.name)")
                    default:
                        // Transformable, external, decimal and URI values: decoded to a value.
                        #expect(value != nil, "\(place).\(attribute.name) has a value in its row but none was read")
                    }
                }
                for relationship in relationships(of: entity.name, in: model) where !relationship.isTransient {
                    let ids = object.objectIDs(forRelationshipNamed: relationship.name)
                    if !relationship.isToMany {
                        let column = row[column(entity.name, relationship.name)]
                        #expect(ids.first?.primaryKey == column?.int64Value, "\(place).\(relationship.name)")
                        continue
                    }
                    let inverse = relationship.inverseName.flatMap { name in
                        relationships(of: relationship.destinationEntityName, in: model).first { $0.name == name }
                    }
                    let destinationTable = "Z" + root(of: relationship.destinationEntityName, in: model).uppercased()
                    if let inverse, !inverse.isToMany {
                        // One-to-many: the destinations' rows point back; ordered ones keep
                        // their order in Z_FOK_<INVERSE>.
                        let inverseColumn = column(relationship.destinationEntityName, inverse.name)
                        let orderColumn = "Z_FOK_" + inverseColumn.dropFirst()
                        let destinationColumns = Set(
                            try CoreDataCorpus.sql(storeURL, "SELECT name FROM pragma_table_info('\(destinationTable)')").compactMap { $0[0].stringValue })
                        let order = relationship.isOrdered && destinationColumns.contains(orderColumn) ? "\(orderColumn), Z_PK" : "Z_PK"
                        let keys = try CoreDataCorpus.sql(
                            storeURL, "SELECT Z_PK FROM \(destinationTable) WHERE \(inverseColumn) = \(key) ORDER BY \(order)"
                        ).compactMap { $0[0].int64Value }
                        let read = ids.compactMap(\.primaryKey)
                        #expect((relationship.isOrdered ? read : read.sorted()) == keys, "\(place).\(relationship.name)")
                    } else if let inverse {
                        // Many-to-many: a join table Z_<n><NAME> of one of the two sides.
                        let candidates = tables.filter { table in
                            [relationship.name, inverse.name].contains { name in
                                table.hasPrefix("Z_") && table.hasSuffix(name.uppercased())
                                    && table.dropFirst(2).dropLast(name.count).allSatisfy(\.isNumber)
                                    && !table.dropFirst(2).dropLast(name.count).isEmpty
                            }
                        }
                        guard let join = candidates.sorted().first else {
                            Issue.record("\(place).\(relationship.name): no join table among \(tables.sorted())")
                            continue
                        }
                        let columns = try CoreDataCorpus.sql(storeURL, "SELECT name FROM pragma_table_info('\(join)')").compactMap { $0[0].stringValue }
                        // The column naming this side ends in the inverse's name (it holds the
                        // objects whose `inverse` leads here).
                        let mine = columns.first { $0.hasPrefix("Z_") && !$0.hasPrefix("Z_FOK") && $0.hasSuffix(inverse.name.uppercased()) && inverse.name != relationship.name }
                        guard let mine, let theirs = columns.first(where: { $0 != mine && !$0.hasPrefix("Z_FOK") }) else { continue }
                        let keys = try CoreDataCorpus.sql(storeURL, "SELECT \(theirs) FROM \(join) WHERE \(mine) = \(key) ORDER BY \(theirs)")
                            .compactMap { $0[0].int64Value }
                        #expect(ids.compactMap(\.primaryKey).sorted() == keys, "\(place).\(relationship.name)")
                    }
                }
            }
        }
    }
}
