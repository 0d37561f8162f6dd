import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// The writes of one save in a Core Data store (see `StoreTransaction`), in Core Data's
/// layout: a new row's `Z_OPT` is 1 and every later write of it adds one; keys come from
/// `Z_PRIMARYKEY.Z_MAX` of the hierarchy's root, which each allocation advances; a to-one
/// writes its destination's `Z_PK` (and `Z_ENT` where the layout has the column); links of
/// many-to-manys go to their join tables and the order of ordered to-manys to `Z_FOK_`
/// columns. Rows are written one statement each, as they come. Large binary values of
/// attributes that allow external storage go to files (see `CoreDataExternalFiles`), which
/// the store keeps or removes as the save commits or rolls back. In a store where Core Data
/// records its persistent history, each write is noted in `history`, which
/// `CoreDataStore.performWrite` records in Core Data's tables before the commit.
final class CoreDataStoreTransaction: StoreTransaction {
    private let store: CoreDataStore
    private var layout: CoreDataLayout { store.layout }
    private var database: Database { store.database }
    /// The files this save writes and the ones it leaves unnamed.
    let externalFiles: CoreDataExternalFiles
    /// The changes written so far, when Core Data records the store's history.
    let history: CoreDataHistoryRecorder?

    init(store: CoreDataStore) {
        self.store = store
        externalFiles = CoreDataExternalFiles(folder: store.externalFolder)
        history = store.recordsHistory ? CoreDataHistoryRecorder(path: store.path) : nil
    }

    // MARK: - Rows

    func allocateKeys(rootEntity: String, count: Int) throws -> Int64 {
        guard let root = layout.entities[rootEntity], let table = layout.tables[rootEntity] else {
            throw CoreDataStoreError(path: store.path, "the model has no entity \(rootEntity)")
        }
        let recorded = try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(root.number)]).int64Value ?? 0
        // A key above Z_MAX (a store written by hand) is never given out again either.
        let stored = try database.scalar("SELECT max(Z_PK) FROM \(quoted(table.name))").int64Value ?? 0
        let keys = try KeyCounter.keys(
            after: recorded < 0 ? recorded : max(recorded, stored), count: count, entity: rootEntity)
        let first = keys.first
        try database.execute(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(keys.last), .integer(root.number)])
        return first
    }

    func currentVersions(rootEntity: String, keys: [Int64]) throws -> [Int64: Int64] {
        guard let table = layout.tables[rootEntity] else { return [:] }
        var versions: [Int64: Int64] = [:]
        for start in stride(from: 0, to: keys.count, by: 500) {
            let chunk = keys[start..<min(start + 500, keys.count)]
            let sql = "SELECT Z_PK, Z_OPT FROM \(quoted(table.name)) WHERE Z_PK IN (\(chunk.map(String.init).joined(separator: ", ")))"
            for row in try database.query(sql) {
                if let key = row[0].int64Value { versions[key] = row[1].int64Value ?? 1 }
            }
        }
        return versions
    }

    func insert(_ object: any SavedObject, key: Int64, tag: Int, onConflict: InsertConflictAction) throws {
        let (table, entity) = try tableAndEntity(object.schema)
        if onConflict != .fail, let existing = try existingRow(of: object) {
            if onConflict == .update { try overwrite(object, key: existing, tag: tag) }
            return
        }
        let columns = try values(of: object, in: table, positions: nil)
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.name)
        let sql =
            "INSERT INTO \(quoted(table.name)) (\(names.map(quoted).joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        try reportingViolation(tag: tag, object: object) {
            try database.execute(sql, [.integer(key), .integer(entity.number), .integer(1)] + columns.map(\.value))
        }
        history?.inserted(object.schema, number: entity.number, key: key)
    }

    func update(_ object: any SavedObject, key: Int64, positions: [Int], tag: Int) throws {
        let (table, entity) = try tableAndEntity(object.schema)
        try write(try values(of: object, in: table, positions: positions), table: table, key: key, bumping: true, tag: tag, object: object)
        history?.updated(
            object.schema, number: entity.number, key: key, slots: layout.historySlots(of: object.schema),
            properties: positions.map { object.schema.properties[$0].name })
    }

    func overwrite(_ object: any SavedObject, key: Int64, tag: Int) throws {
        let (table, entity) = try tableAndEntity(object.schema)
        try write(try values(of: object, in: table, positions: nil), table: table, key: key, bumping: true, tag: tag, object: object)
        history?.updated(
            object.schema, number: entity.number, key: key, slots: layout.historySlots(of: object.schema),
            properties: object.schema.properties.filter { !$0.isTransient }.map(\.name))
    }

    func setValues(_ values: [(position: Int, value: AttributeValue)], of entity: EntitySchema, key: Int64) throws {
        let (table, entry) = try tableAndEntity(entity)
        var columns: [(name: String, value: SQLiteValue)] = []
        var names: [String] = []
        for (position, value) in values {
            guard case .attribute(let attribute) = entity.properties[position], attribute.isStored else { continue }
            columns.append((table.columnName(of: attribute.name, in: entity.name), try encode(value, for: attribute, entity: entity.name)))
            names.append(attribute.name)
        }
        try write(columns, table: table, key: key, bumping: false, tag: 0, object: nil)
        if !names.isEmpty {
            history?.updated(entity, number: entry.number, key: key, slots: layout.historySlots(of: entity), properties: names)
        }
    }

    func deleteRows(rootEntity: String, keys: [Int64]) throws {
        guard let table = layout.tables[rootEntity] else { return }
        let external = externalColumns(of: table)
        for start in stride(from: 0, to: keys.count, by: 500) {
            let list = keys[start..<min(start + 500, keys.count)].map(String.init).joined(separator: ", ")
            if history != nil { try noteDeletes(in: table, list: list) }
            if !external.isEmpty {
                let sql = "SELECT \(external.map(quoted).joined(separator: ", ")) FROM \(quoted(table.name)) WHERE Z_PK IN (\(list))"
                for row in try database.query(sql) { row.forEach(externalFiles.noteReplaced) }
            }
            try database.execute("DELETE FROM \(quoted(table.name)) WHERE Z_PK IN (\(list))")
        }
    }

    /// Nothing here: Core Data keeps tombstones only in its persistent history, where
    /// `deleteRows` notes each deleted row with the values it preserves, read from the row.
    func recordTombstone(of object: any SavedObject, key: Int64) throws {}

    func setHistoryAuthor(_ author: String?, contextName: String?) {
        history?.author = author
        history?.contextName = contextName
    }

    func rowsPerWrite(entity: String) -> Int { 1 }

    func flush() throws {}

    // MARK: - Links

    var storesAnyLinksInJoinTables: Bool {
        !layout.joinSides.isEmpty || !layout.inverseColumns.isEmpty || layout.tables.values.contains { !$0.orderColumns.isEmpty }
    }

    func storesLinksInJoinTable(entity: String, relationship: String) -> Bool {
        layout.joinSide(entity: entity, relationship: relationship) != nil || orderedThroughInverse(entity, relationship) != nil
            || layout.inverseColumn(entity: entity, relationship: relationship) != nil
    }

    func removeLinks(entity: String, relationship: String, from own: Int64) throws {
        if let kept = layout.inverseColumn(entity: entity, relationship: relationship) {
            return try database.execute(
                "UPDATE \(quoted(kept.table)) SET \(quoted(kept.column)) = NULL WHERE \(quoted(kept.column)) = ?", [.integer(own)])
        }
        guard let side = layout.joinSide(entity: entity, relationship: relationship) else { return }
        try database.execute("DELETE FROM \(quoted(side.table)) WHERE \(quoted(side.ownColumn)) = ?", [.integer(own)])
    }

    func removeLinks(entity: String, relationship: String, to other: Int64) throws {
        if let kept = layout.inverseColumn(entity: entity, relationship: relationship) {
            return try database.execute("UPDATE \(quoted(kept.table)) SET \(quoted(kept.column)) = NULL WHERE Z_PK = ?", [.integer(other)])
        }
        guard let side = layout.joinSide(entity: entity, relationship: relationship) else { return }
        try database.execute("DELETE FROM \(quoted(side.table)) WHERE \(quoted(side.otherColumn)) = ?", [.integer(other)])
    }

    func removeLink(entity: String, relationship: String, from own: Int64, to other: Int64) throws {
        if let kept = layout.inverseColumn(entity: entity, relationship: relationship) {
            return try database.execute(
                "UPDATE \(quoted(kept.table)) SET \(quoted(kept.column)) = NULL WHERE Z_PK = ? AND \(quoted(kept.column)) = ?",
                [.integer(other), .integer(own)])
        }
        guard let side = layout.joinSide(entity: entity, relationship: relationship) else { return }
        try database.execute(
            "DELETE FROM \(quoted(side.table)) WHERE \(quoted(side.ownColumn)) = ? AND \(quoted(side.otherColumn)) = ?",
            [.integer(own), .integer(other)])
    }

    func setLink(entity: String, relationship: String, from own: Int64, to other: Int64, position: Int?) throws {
        if let kept = layout.inverseColumn(entity: entity, relationship: relationship) {
            return try database.execute(
                "UPDATE \(quoted(kept.table)) SET \(quoted(kept.column)) = ? WHERE Z_PK = ?", [.integer(own), .integer(other)])
        }
        if let (table, order) = orderedThroughInverse(entity, relationship) {
            guard let position else { return try appendLink(entity: entity, relationship: relationship, from: own, to: other) }
            try database.execute(
                "UPDATE \(quoted(table)) SET \(quoted(order)) = ? WHERE Z_PK = ?", [.integer(Int64(position) + 1), .integer(other)])
            return
        }
        guard let side = layout.joinSide(entity: entity, relationship: relationship) else { return }
        // Both sides of a many-to-many write the one row: the unordered side only adds it,
        // the ordered side sets its place.
        try insertLinkIfMissing(side, own: own, other: other)
        if let column = side.orderColumn, let position {
            try database.execute(
                "UPDATE \(quoted(side.table)) SET \(quoted(column)) = ? WHERE \(quoted(side.ownColumn)) = ? AND \(quoted(side.otherColumn)) = ?",
                [.integer(Int64(position) + 1), .integer(own), .integer(other)])
        }
    }

    func appendLink(entity: String, relationship: String, from own: Int64, to other: Int64) throws {
        if layout.inverseColumn(entity: entity, relationship: relationship) != nil {
            return try setLink(entity: entity, relationship: relationship, from: own, to: other, position: nil)
        }
        if let (table, order) = orderedThroughInverse(entity, relationship),
            let inverse = inverseColumn(entity, relationship)
        {
            let last =
                try database.scalar(
                    "SELECT max(\(quoted(order))) FROM \(quoted(table)) WHERE \(quoted(inverse)) = ? AND Z_PK != ?",
                    [.integer(own), .integer(other)]
                ).int64Value ?? 0
            try database.execute("UPDATE \(quoted(table)) SET \(quoted(order)) = ? WHERE Z_PK = ?", [.integer(last + 1), .integer(other)])
            return
        }
        guard let side = layout.joinSide(entity: entity, relationship: relationship) else { return }
        try insertLinkIfMissing(side, own: own, other: other)
        if let column = side.orderColumn {
            // At the end, unless the link already has a place.
            try database.execute(
                "UPDATE \(quoted(side.table)) SET \(quoted(column)) = (SELECT coalesce(max(\(quoted(column))), 0) + 1 FROM "
                    + "\(quoted(side.table)) WHERE \(quoted(side.ownColumn)) = ?) WHERE \(quoted(side.ownColumn)) = ? AND "
                    + "\(quoted(side.otherColumn)) = ? AND \(quoted(column)) IS NULL",
                [.integer(own), .integer(own), .integer(other)])
        }
    }

    func removeAllLinks(rootEntity: String, keys: [Int64]) throws {
        guard let root = layout.entities[rootEntity] else { return }
        var columns: [(table: String, column: String)] = []
        for name in root.schema.hierarchyNames {
            for side in (layout.joinSides[name] ?? [:]).values { columns.append((side.table, side.ownColumn)) }
        }
        // The other side of each many-to-many whose destination is in this hierarchy.
        for (entity, sides) in layout.joinSides {
            for (relationship, side) in sides {
                guard let destination = layout.entities[entity]?.schema.relationship(named: relationship)?.destinationEntityName,
                    layout.entities[destination]?.schema.rootName == rootEntity
                else { continue }
                columns.append((side.table, side.otherColumn))
            }
        }
        // One statement per join table side, the keys as one JSON array (no limit on how many).
        guard !keys.isEmpty else { return }
        let list = SQLiteValue.text("[" + keys.map(String.init).joined(separator: ",") + "]")
        // Destinations of a deleted row's to-manys kept in their own column belong to nothing.
        var kept: Set<String> = []
        for name in root.schema.hierarchyNames {
            for column in (layout.inverseColumns[name] ?? [:]).values where kept.insert(column.table + "." + column.column).inserted {
                try database.execute(
                    "UPDATE \(quoted(column.table)) SET \(quoted(column.column)) = NULL WHERE \(quoted(column.column)) IN "
                        + "(SELECT value FROM json_each(?))", [list])
            }
        }
        for (table, column) in columns {
            try database.execute(
                "DELETE FROM \(quoted(table)) WHERE \(quoted(column)) IN (SELECT value FROM json_each(?))", [list])
        }
    }

    // MARK: - Uniqueness

    /// The key of the row of `entity`'s hierarchy whose `constraint` values are `values`.
    ///
    /// A nil value matches no row: as in a UNIQUE index (SQLite's and Core Data's), NULLs
    /// are distinct, so a new book without an ISBN is not the stored book without one.
    func existingKey(entity: String, constraint: [String], values: [AttributeValue]) throws -> Int64? {
        guard let entry = layout.entities[entity], let table = layout.tables[entry.schema.rootName] else { return nil }
        let schema = entry.schema
        guard !values.contains(where: \.isNull) else { return nil }
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        for (name, value) in zip(constraint, values) {
            guard let attribute = schema.attribute(named: name) else { return nil }
            conditions.append("\(quoted(table.columnName(of: name, in: entity))) = ?")
            arguments.append(try CoreDataValueCodec.encode(value, for: attribute, entity: entity))
        }
        if !schema.ancestors.isEmpty {
            conditions.append("Z_ENT IN (\(entry.hierarchyNumbers.map(String.init).joined(separator: ", ")))")
        }
        let sql = "SELECT Z_PK FROM \(quoted(table.name)) WHERE \(conditions.joined(separator: " AND ")) LIMIT 1"
        return try database.query(sql, arguments).first?.first?.int64Value
    }

    func hasRow(entity: String, constraint: [String], anyOf valueLists: [[AttributeValue]]) throws -> Bool {
        for values in valueLists where try existingKey(entity: entity, constraint: constraint, values: values) != nil {
            return true
        }
        return false
    }

    // MARK: - Aggregates

    func aggregate(_ derivation: Derivation, members: String, linkedBy link: String, to key: Int64) throws -> AttributeValue {
        guard let schema = layout.entities[members]?.schema, let table = layout.tables[schema.rootName],
            let index = table.index(of: link, in: schema.name)
        else { return .null }
        let rows = try store.rows(
            table, where: "\(quoted(table.columns[index].name)) = ?", [.integer(key)],
            entityNumbers: schema.ancestors.isEmpty ? nil : layout.entities[members]?.hierarchyNumbers)
        switch derivation {
        case .count: return .integer(Int64(rows.count))
        case .sum(_, let attribute):
            guard let position = schema.propertyIndex[attribute] else { return .null }
            let values = rows.compactMap { row -> AttributeValue? in
                if case .value(let value) = row.slots[position] { return value }
                return nil
            }
            return try AttributeValue.sum(of: values)
        default:
            return .null
        }
    }

    func notingDestinationsLeft(
        entity: String, relationships: [String], _ body: () throws -> Void
    ) throws -> [(relationship: String, key: Int64)] {
        try body()
        return []
    }

    func entityName(rootEntity: String, key: Int64) throws -> String? {
        guard let table = layout.tables[rootEntity] else { return nil }
        let number = try database.query("SELECT Z_ENT FROM \(quoted(table.name)) WHERE Z_PK = ?", [.integer(key)]).first?.first?.int64Value
        return number.flatMap { layout.entityNames[$0] }
    }

    // MARK: - Helpers

    private func tableAndEntity(_ schema: EntitySchema) throws -> (CoreDataLayout.Table, CoreDataLayout.Entity) {
        guard let entity = layout.entities[schema.name], let table = layout.tables[schema.rootName] else {
            throw CoreDataStoreError(path: store.path, "the model has no entity \(schema.name)")
        }
        return (table, entity)
    }

    /// The column values of `object` at `positions` (nil: every column of the table, NULL
    /// where the object's entity has no such property).
    private func values(of object: any SavedObject, in table: CoreDataLayout.Table, positions: [Int]?) throws
        -> [(name: String, value: SQLiteValue)]
    {
        let schema = object.schema
        var result: [(name: String, value: SQLiteValue)] = []
        let indexes: [Int]
        if let positions {
            indexes = positions.compactMap { table.index(of: schema.properties[$0].name, in: schema.name) }
        } else {
            indexes = Array(table.columns.indices)
        }
        for index in indexes {
            let column = table.columns[index]
            // Another entity's column of the table (its own `title`) is NULL in this row.
            let isOwn = { (name: String) in table.index(of: name, in: schema.name) == index }
            switch column.kind {
            case .attribute(let attribute):
                guard isOwn(attribute.name), let position = schema.propertyIndex[attribute.name],
                    case .value(let value) = object.storedSlot(at: position)
                else {
                    result.append((column.name, .null))
                    continue
                }
                result.append((column.name, try encode(value, for: attribute, entity: schema.name)))
            case .toOne(let relationship, let entityColumn):
                var destination: ObjectID?
                if isOwn(relationship.name), let position = schema.propertyIndex[relationship.name],
                    case .toOneFault(let id) = object.storedSlot(at: position)
                {
                    destination = id
                }
                result.append((column.name, destination?.primaryKey.map { .integer($0) } ?? .null))
                if let entityColumn {
                    let number = destination.flatMap { layout.entities[$0.entityName]?.number }
                    result.append((entityColumn, number.map { .integer($0) } ?? .null))
                }
            }
        }
        return result
    }

    /// Writes `columns` to the row `key`, adding one to its `Z_OPT` when `bumping`.
    private func write(
        _ columns: [(name: String, value: SQLiteValue)], table: CoreDataLayout.Table, key: Int64, bumping: Bool, tag: Int,
        object: (any SavedObject)?
    ) throws {
        var assignments = columns.map { "\(quoted($0.name)) = ?" }
        if bumping { assignments.append("Z_OPT = coalesce(Z_OPT, 0) + 1") }
        guard !assignments.isEmpty else { return }
        // The files the columns named until now are unnamed by this write.
        let external = Set(externalColumns(of: table)).intersection(columns.map(\.name)).sorted()
        if !external.isEmpty {
            let sql = "SELECT \(external.map(quoted).joined(separator: ", ")) FROM \(quoted(table.name)) WHERE Z_PK = ?"
            for row in try database.query(sql, [.integer(key)]) { row.forEach(externalFiles.noteReplaced) }
        }
        let sql = "UPDATE \(quoted(table.name)) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?"
        try reportingViolation(tag: tag, object: object) {
            try database.execute(sql, columns.map(\.value) + [.integer(key)])
        }
    }

    /// The column value of `value`: in a new external file when Core Data would keep it
    /// there (see `CoreDataExternalFiles`), else as `CoreDataValueCodec` encodes it.
    private func encode(_ value: AttributeValue, for attribute: AttributeDescription, entity: String) throws -> SQLiteValue {
        if CoreDataExternalFiles.keepsOutside(value, of: attribute), case .data(let bytes) = value {
            return try externalFiles.write(bytes)
        }
        return try CoreDataValueCodec.encode(value, for: attribute, entity: entity)
    }

    /// Notes the delete of each row of `table` among the keys `list` in the history, with
    /// its entity (a sub-entity's own) and the values its entity preserves after deletion,
    /// read from the row before it goes (see `CoreDataHistoryColumns.tombstoneAttributes`).
    private func noteDeletes(in table: CoreDataLayout.Table, list: String) throws {
        var preserved: [String: [String]] = [:]
        var columns: [String] = []
        for name in layout.entities[table.rootName]?.schema.hierarchyNames ?? [] {
            guard let schema = layout.entities[name]?.schema else { continue }
            let names = CoreDataHistoryColumns.tombstoneAttributes(of: schema).map { table.columnName(of: $0.name, in: name) }
            preserved[name] = names
            for column in names where !columns.contains(column) { columns.append(column) }
        }
        let sql = "SELECT \((["Z_PK", "Z_ENT"] + columns).map(quoted).joined(separator: ", ")) FROM \(quoted(table.name)) WHERE Z_PK IN (\(list))"
        for row in try database.query(sql) {
            guard let key = row[0].int64Value, let number = row[1].int64Value, let name = layout.entityNames[number],
                let schema = layout.entities[name]?.schema
            else { continue }
            let tombstone = (preserved[name] ?? []).map { column in columns.firstIndex(of: column).map { row[$0 + 2] } ?? .null }
            history?.deleted(schema, number: number, key: key, tombstone: tombstone)
        }
    }

    /// The columns of `table` whose values may name external files.
    private func externalColumns(of table: CoreDataLayout.Table) -> [String] {
        table.columns.compactMap { column in
            guard case .attribute(let attribute) = column.kind, attribute.allowsExternalBinaryDataStorage else { return nil }
            return column.name
        }
    }

    /// The key of a stored row with the unique values of `object`, for any of its
    /// entity's constraints.
    private func existingRow(of object: any SavedObject) throws -> Int64? {
        for constraint in object.schema.uniquenessConstraints {
            let values = constraint.map { name -> AttributeValue in
                guard let position = object.schema.propertyIndex[name], case .value(let value) = object.storedSlot(at: position)
                else { return .null }
                return value
            }
            if let key = try existingKey(entity: object.schema.name, constraint: constraint, values: values) { return key }
        }
        return nil
    }

    /// Runs `body`, turning a broken unique index into `UniquenessViolation`.
    private func reportingViolation(tag: Int, object: (any SavedObject)?, _ body: () throws -> Void) throws {
        do { try body() } catch let error as SQLiteError where error.isUniqueConstraint {
            guard let object else { throw error }
            var index: Int?
            for (position, constraint) in object.schema.uniquenessConstraints.enumerated() {
                let columns = constraint.map { layout.tables[object.schema.rootName]?.columnName(of: $0, in: object.schema.name) ?? CoreDataLayout.columnName($0) }
                if columns.allSatisfy({ error.message.contains($0) }) {
                    index = position
                    break
                }
            }
            throw UniquenessViolation(tag: tag, constraintIndex: index)
        }
    }

    /// The table and `Z_FOK_` column keeping the order of `entity`'s ordered to-many
    /// `relationship` whose inverse is a to-one.
    private func orderedThroughInverse(_ entity: String, _ relationship: String) -> (table: String, column: String)? {
        guard let r = layout.entities[entity]?.schema.relationship(named: relationship), r.isToMany, r.isOrdered,
            let inverse = r.inverseName, let destination = layout.entities[r.destinationEntityName],
            let table = layout.tables[destination.schema.rootName], let column = table.orderColumns[inverse]
        else { return nil }
        return (table.name, column)
    }

    /// The inverse to-one's key column of `entity`'s to-many `relationship`.
    private func inverseColumn(_ entity: String, _ relationship: String) -> String? {
        guard let r = layout.entities[entity]?.schema.relationship(named: relationship), let inverse = r.inverseName,
            let destination = layout.entities[r.destinationEntityName], let table = layout.tables[destination.schema.rootName],
            let index = table.index(of: inverse, in: destination.schema.name)
        else { return nil }
        return table.columns[index].name
    }

    /// Adds the join row of `own` and `other` unless it is there.
    private func insertLinkIfMissing(_ side: CoreDataLayout.JoinSide, own: Int64, other: Int64) throws {
        try database.execute(
            "INSERT INTO \(quoted(side.table)) (\(quoted(side.ownColumn)), \(quoted(side.otherColumn))) SELECT ?, ? WHERE NOT EXISTS "
                + "(SELECT 1 FROM \(quoted(side.table)) WHERE \(quoted(side.ownColumn)) = ? AND \(quoted(side.otherColumn)) = ?)",
            [.integer(own), .integer(other), .integer(own), .integer(other)])
    }
}
