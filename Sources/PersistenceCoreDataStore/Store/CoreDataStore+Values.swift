import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// Dictionary results (`forEachValues`): the columns asked for, read in SQL.
extension CoreDataStore {
    /// The values of `keyPaths` of each row `request` fetches, in order. When SQL answers
    /// the whole request (no residual term, sorts and window in SQL, no search) and every key
    /// path is a stored attribute of the entity, only those columns are read, so that, say,
    /// the UUIDs of 100,000 books in UUID order cost their column and not every row; any
    /// other request is answered from whole rows (`forEachValuesFromWholeRows`).
    ///
    /// - Throws: `FetchError` for a request that cannot run or a key path that is unknown,
    ///   transient or to-many; `StoreError.corruptValue` for a value of the wrong type.
    package func forEachValues(
        of keyPaths: [String], _ request: FetchRequest, _ body: ([StoredSlot]) throws -> Bool
    ) throws {
        let (table, query, _) = try compiled(request)
        guard query.windowInSQL, request.searchText == nil, let entity = layout.entities[request.entityName]?.schema,
            let attributes = storedAttributes(keyPaths, of: entity, in: table)
        else {
            return try forEachValuesFromWholeRows(of: keyPaths, request, body)
        }
        let columns = ["Z_PK"] + attributes.map(\.column)
        for row in try database.query(query.selectSQL(columns: columns), query.bindings.map(SQLiteValue.init)) {
            let key = row[0].int64Value ?? 0
            var slots: [StoredSlot] = []
            slots.reserveCapacity(attributes.count)
            for (index, attribute) in attributes.enumerated() {
                slots.append(
                    .value(
                        try CoreDataValueCodec.decode(
                            row[index + 1], for: attribute.description, entity: entity.name,
                            object: "\(entity.name)/p\(key)", externalFolder: externalFolder,
                            decodesArchives: !passesArchivesThrough, path: path)))
            }
            if try !body(slots) { return }
        }
    }

    /// Each key path's attribute and column, when every one names a stored attribute of
    /// `entity` kept in a column of `table`; nil otherwise.
    private func storedAttributes(_ keyPaths: [String], of entity: EntitySchema, in table: CoreDataLayout.Table)
        -> [(description: AttributeDescription, column: String)]?
    {
        var result: [(description: AttributeDescription, column: String)] = []
        for keyPath in keyPaths {
            guard let attribute = entity.attribute(named: keyPath), attribute.isStored, !attribute.isTransient,
                let index = table.columnIndex[keyPath], case .attribute = table.columns[index].kind
            else { return nil }
            result.append((attribute, table.columns[index].name))
        }
        return result
    }
}
