import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore

// The reads behind Core Data's tools for large fetches, each one statement (per 500 keys)
// where the protocol's defaults read once per object or whole rows: a batch of faults by key,
// and a dictionary result's columns without the rest of the row.

extension CoreDataStore {
    /// The rows with these IDs, read by `Z_PK IN (…)`: one statement per table and 500 keys.
    /// An ID given twice is read once.
    package func rows(for ids: [ObjectID]) throws -> [StoreRow] {
        var keysByRoot: [String: Set<Int64>] = [:]
        for id in ids where id.storeIdentifier == identifier {
            if let key = id.primaryKey { keysByRoot[id.rootName, default: []].insert(key) }
        }
        var result: [StoreRow] = []
        result.reserveCapacity(ids.count)
        for (rootName, keys) in keysByRoot.sorted(by: { $0.key < $1.key }) {
            guard let table = layout.tables[rootName] else { continue }
            let sorted = keys.sorted()
            for start in stride(from: 0, to: sorted.count, by: 500) {
                let chunk = sorted[start..<min(start + 500, sorted.count)]
                let sql =
                    "SELECT \(selectList(table)) FROM \(quoted(table.name)) "
                    + "WHERE Z_PK IN (\(chunk.map(String.init).joined(separator: ", "))) ORDER BY Z_PK"
                try forEachRow(sql, [], table: table) { row in
                    result.append(row)
                    return true
                }
            }
        }
        return result
    }

    /// A dictionary result's values. Key paths that each name a stored attribute or a to-one
    /// of the entity itself, of a request SQL answers whole (no residual term, no sort or
    /// search left to memory), are read from their columns alone, as the statement steps;
    /// anything else from whole rows (`forEachValuesFromWholeRows`), which reads a related
    /// row for each step through a to-one.
    ///
    /// - Throws: `FetchError` for an unknown, transient or to-many key path, or a request
    ///   that cannot run; the store's failure when its rows cannot be read.
    package func forEachValues(
        of keyPaths: [String], _ request: FetchRequest, _ body: ([StoredSlot]) throws -> Bool
    ) throws {
        guard let entity = layout.entities[request.entityName], let table = layout.tables[entity.schema.rootName] else {
            return try forEachValuesFromWholeRows(of: keyPaths, request, body)
        }
        let schema = entity.schema
        let paths = try keyPaths.map { try StoredKeyPath($0, entity: schema, model: model) }
        let (_, query, _) = try compiled(request)
        guard query.windowInSQL, request.searchText == nil || query.ranksSearch, paths.allSatisfy({ $0.positions.count == 1 }) else {
            return try forEachValuesFromWholeRows(of: keyPaths, request, body)
        }
        // Column 0 is the row's key (for errors and external files); each value's after it.
        var columns = ["Z_PK"]
        var readers: [ColumnValueReader] = []
        var attributes: [AttributeDescription] = []
        for path in paths {
            let property = schema.properties[path.positions[0]]
            guard let index = table.index(of: property.name, in: schema.name) else {
                return try forEachValuesFromWholeRows(of: keyPaths, request, body)
            }
            let column = Int32(columns.count)
            columns.append(table.columns[index].name)
            switch (property, table.columns[index].kind) {
            case (.attribute(let attribute), _):
                attributes.append(attribute)
                readers.append(
                    .attribute(
                        column: column, reader: CoreDataRowDecodePlan.reader(for: attribute), attribute: Int32(attributes.count - 1)))
            case (.relationship(let relationship), .toOne(_, let entityColumn)):
                guard let destination = layout.entities[relationship.destinationEntityName] else {
                    return try forEachValuesFromWholeRows(of: keyPaths, request, body)
                }
                var entityColumnIndex: Int32?
                if let entityColumn {
                    entityColumnIndex = Int32(columns.count)
                    columns.append(entityColumn)
                }
                readers.append(
                    .toOne(
                        column: column, entityColumn: entityColumnIndex, entityName: destination.schema.name,
                        rootName: destination.schema.rootName))
            default:
                return try forEachValuesFromWholeRows(of: keyPaths, request, body)
            }
        }
        let statement = try database.prepare(query.selectSQL(columns: columns))
        try statement.bind(query.selectBindings.map(SQLiteValue.init))
        while try statement.step() {
            let key = statement.column(at: 0).int64
            var values: [StoredSlot] = []
            values.reserveCapacity(readers.count)
            for reader in readers {
                switch reader {
                case .attribute(let column, let kind, let attribute):
                    let cell = statement.column(at: column)
                    if let value = CoreDataRowDecodePlan.inlineValue(of: cell, reader: kind) {
                        values.append(.value(value))
                        continue
                    }
                    values.append(
                        .value(
                            try CoreDataValueCodec.decode(
                                cell.value, for: attributes[Int(attribute)], entity: schema.name, object: "\(schema.name)/p\(key)",
                                externalFolder: externalFolder, decodesArchives: !passesArchivesThrough, path: path)))
                case .toOne(let column, let entityColumn, let entityName, let rootName):
                    let cell = statement.column(at: column)
                    guard cell.storageClass == .integer else {
                        values.append(.toOneFault(nil))
                        continue
                    }
                    var name = entityName
                    if let entityColumn, statement.column(at: entityColumn).storageClass == .integer,
                        let named = layout.entityNames[statement.column(at: entityColumn).int64],
                        layout.entities[named]?.schema.rootName == rootName
                    {
                        name = named
                    }
                    values.append(.toOneFault(ObjectID(scope: idScope(entityName: name, rootName: rootName), key: .permanent(cell.int64))))
                }
            }
            if try !body(values) { return }
        }
    }
}

/// How one value of a dictionary result is read from its statement's columns.
private enum ColumnValueReader {
    /// An attribute's column, how to read it, and the attribute's index among the read's
    /// attributes (for what is not read inline).
    case attribute(column: Int32, reader: CoreDataRowDecodePlan.Reader, attribute: Int32)
    /// A to-one's key column, and its destination-entity column when it has one.
    case toOne(column: Int32, entityColumn: Int32?, entityName: String, rootName: String)
}
