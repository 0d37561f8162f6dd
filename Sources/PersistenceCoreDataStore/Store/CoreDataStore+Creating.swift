import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteFiles

/// Making a new, empty store in Core Data's layout for a model.
extension CoreDataStore {
    /// Creates an empty Core Data store for `model` at `url` (which must not exist): its row
    /// and join tables with Core Data's names, types and indexes, `Z_PRIMARYKEY` with the
    /// entity numbers Core Data gives the model (see `CoreDataLayout.entityNumbers`) and a
    /// new store UUID in `Z_METADATA`.
    ///
    /// `Z_METADATA`'s property list is the one Core Data writes for the model (its entity
    /// version hashes, see `CoreDataStoreMetadata`), and `Z_MODELCACHE` holds the model as
    /// Core Data compiles it (see `CompiledModel`). On any error no file is left.
    ///
    /// - Throws: `StoreError.missingDirectory` or `.notARegularFile`; `CoreDataFormatError`
    ///   for a model that cannot be compiled; `SQLiteError` when the file cannot be written.
    package static func create(model: ManagedObjectModel, at url: URL) throws {
        try model.freeze()
        let path = url.path
        guard try !StoreFile.check(path) else {
            throw CoreDataStoreError(path: path, "a file is already there; a new Core Data store needs a new name")
        }
        let numbers = CoreDataLayout.entityNumbers(model)
        let layout = try CoreDataLayout(
            model: model, numbers: Dictionary(uniqueKeysWithValues: numbers.map { ($0.name, $0.number) }), storeColumns: nil,
            path: path)
        let modelCache = try CompiledModel.modelCache(for: model)
        do {
            let database = try Database(path: path, mode: .createIfMissing)
            defer { try? database.close() }
            _ = try database.query("PRAGMA journal_mode = WAL")
            try database.inTransaction {
                for statement in ddl(layout, model: model) { try database.execute(statement) }
                for entity in numbers {
                    try database.execute(
                        "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                        [.integer(entity.number), .text(entity.name), .integer(entity.superNumber)])
                }
                let uuid = UUID().uuidString
                try database.execute(
                    "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                    [.text(uuid), .blob(BinaryPropertyList.write(CoreDataStoreMetadata.propertyList(for: model)))])
                try database.execute("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", [.blob(modelCache)])
            }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            throw error
        }
    }

    /// The indexes Core Data makes for `entity`'s own indexes, as it names them: an
    /// attribute marked indexed is a fetch index named after it (`Z_Book_title`), a fetch
    /// index keeps its name and each element's order (`Z_Car_byMakerAndNumberPlate`), a
    /// compound index is named by its properties (`Z_Car_maker_numberPlate`). Without them a
    /// sorted fetch (the catalogue's listing, newest first) sorts every row of the table.
    private static func indexStatements(_ entity: CoreDataLayout.Entity, layout: CoreDataLayout) -> [String] {
        guard let table = layout.tables[entity.schema.rootName] else { return [] }
        let description = entity.schema.entity
        func column(_ property: String) -> String? {
            table.index(of: property, in: entity.schema.name).map { table.columns[$0].name }
        }
        var indexes: [(name: String, elements: [(column: String, ascending: Bool)])] = []
        for attribute in description.attributes where attribute.isIndexed {
            if let column = column(attribute.name) { indexes.append((attribute.name, [(column, true)])) }
        }
        for fetchIndex in description.fetchIndexes {
            indexes.append((fetchIndex.name, fetchIndex.elements.compactMap { e in column(e.property).map { ($0, e.isAscending) } }))
        }
        for keys in description.compoundIndexes {
            indexes.append((keys.joined(separator: "_"), keys.compactMap { column($0).map { ($0, true) } }))
        }
        var named: Set<String> = []
        return indexes.compactMap { index in
            let name = "Z_\(description.name)_\(index.name)"
            guard !index.elements.isEmpty, named.insert(name).inserted else { return nil }
            let columns = index.elements.map { "\($0.column) COLLATE BINARY \($0.ascending ? "ASC" : "DESC")" }
            return "CREATE INDEX \(quoted(name)) ON \(table.name) (\(columns.joined(separator: ", ")))"
        }
    }

    /// The statements that make Core Data's tables and indexes for `layout`.
    private static func ddl(_ layout: CoreDataLayout, model: ManagedObjectModel) -> [String] {
        var statements: [String] = []
        for table in layout.tables.values.sorted(by: { $0.name < $1.name }) {
            var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            var indexes: [String] = []
            for column in table.columns {
                switch column.kind {
                case .attribute(let attribute):
                    columns.append("\(column.name) \(CoreDataLayout.declaredType(attribute.type) ?? "VARCHAR")")
                case .toOne(let relationship, let entityColumn):
                    columns.append("\(column.name) INTEGER")
                    if let entityColumn { columns.append("\(entityColumn) INTEGER") }
                    if let order = table.orderColumns[relationship.name] { columns.append("\(order) INTEGER") }
                    indexes.append("CREATE INDEX \(table.name)_\(column.name)_INDEX ON \(table.name) (\(column.name))")
                }
            }
            statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
            statements.append("CREATE INDEX \(table.name)_Z_ENT_INDEX ON \(table.name) (Z_ENT)")
            statements += indexes
        }
        for entity in layout.entities.values.sorted(by: { $0.schema.name < $1.schema.name }) {
            statements += indexStatements(entity, layout: layout)
        }
        for entity in layout.entities.values.sorted(by: { $0.schema.name < $1.schema.name }) {
            // Each entity's own constraints: a sub-entity's inherited ones are its parent's.
            for constraint in entity.schema.entity.uniquenessConstraints where !constraint.isEmpty {
                let columns = constraint.map { "\(CoreDataLayout.columnName($0)) COLLATE BINARY ASC" }
                statements.append(
                    "CREATE UNIQUE INDEX Z_\(entity.schema.name)_UNIQUE_\(constraint.joined(separator: "_")) ON "
                        + "\(entity.tableName) (\(columns.joined(separator: ", ")))")
            }
        }
        var made: Set<String> = []
        for sides in layout.joinSides.values.flatMap({ $0.values }).sorted(by: { $0.ownColumn < $1.ownColumn }) {
            guard !made.contains(sides.table) else { continue }
            made.insert(sides.table)
            // Both sides' order columns (each side's own, for an ordered side).
            let orderColumns = Set(
                layout.joinSides.values.flatMap { $0.values }.filter { $0.table == sides.table }.compactMap(\.orderColumn))
            let keys = [sides.ownColumn, sides.otherColumn].sorted()
            let columns = keys.map { "\($0) INTEGER" } + orderColumns.sorted().map { "\($0) INTEGER" }
            statements.append(
                "CREATE TABLE \(sides.table) ( \(columns.joined(separator: ", ")), PRIMARY KEY (\(keys.joined(separator: ", "))) )")
            statements.append("CREATE INDEX \(sides.table)_\(keys[1])_INDEX ON \(sides.table) (\(keys[1]), \(keys[0]))")
        }
        statements.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        statements.append("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        statements.append("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        return statements
    }
}
