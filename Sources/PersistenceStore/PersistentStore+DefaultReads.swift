import PersistenceModel

// What a store that does nothing special answers for the requirements behind Core Data's
// tools for large fetches (batches, prefetching, dictionary results, a result kept whole):
// correct answers from the store's other requirements, with one read per object where the
// store could make one for many, and rows in the order its streamed read gives them. A store
// overrides them to read many rows at once or to order rows itself (see the SQLite store's);
// the answers are also under names of their own, for a store that falls back to them.

extension PersistentStore {
    package func forEachRowForArray(
        _ request: FetchRequest, expecting: (Int) -> Void, _ body: (consuming StoreRow) throws -> Bool
    ) throws {
        try forEachRow(request, body)
    }

    /// `forEachRowForArray(_:expecting:_:)` for a caller with no use for the row count.
    package func forEachRowForArray(_ request: FetchRequest, _ body: (consuming StoreRow) throws -> Bool) throws {
        try forEachRowForArray(request, expecting: { _ in }, body)
    }

    package func rows(for ids: [ObjectID]) throws -> [StoreRow] {
        try rowsOneByOne(for: ids)
    }

    package func destinationRows(of relationship: RelationshipDescription, from sources: [ObjectID]) throws
        -> [ObjectID: [StoreRow]]
    {
        try destinationRowsOneSourceAtATime(of: relationship, from: sources)
    }

    package func forEachValues(
        of keyPaths: [String], _ request: FetchRequest, _ body: ([StoredSlot]) throws -> Bool
    ) throws {
        try forEachValuesFromWholeRows(of: keyPaths, request, body)
    }

    package func destinationIDs(of relationship: RelationshipDescription, from sources: [ObjectID]) throws
        -> [ObjectID: [ObjectID]]
    {
        try destinationIDsOneSourceAtATime(of: relationship, from: sources)
    }

    /// `rows(for:)` by one `row(for:)` per ID; an ID given twice is read once, as a read by
    /// many keys answers it.
    package func rowsOneByOne(for ids: [ObjectID]) throws -> [StoreRow] {
        var seen = Set<ObjectID>()
        return try ids.compactMap { id in seen.insert(id).inserted ? try row(for: id) : nil }
    }

    /// `destinationRows(of:from:)` by one `forEachDestinationRow` per source.
    package func destinationRowsOneSourceAtATime(of relationship: RelationshipDescription, from sources: [ObjectID])
        throws -> [ObjectID: [StoreRow]]
    {
        var result: [ObjectID: [StoreRow]] = [:]
        for source in sources {
            var rows: [StoreRow] = []
            try forEachDestinationRow(of: relationship, from: source) { row in
                rows.append(row)
                return true
            }
            if !rows.isEmpty { result[source] = rows }
        }
        return result
    }

    /// `destinationIDs(of:from:)` for many sources by one `destinationIDs(of:from:)` per
    /// source; a source given twice is read once.
    package func destinationIDsOneSourceAtATime(of relationship: RelationshipDescription, from sources: [ObjectID])
        throws -> [ObjectID: [ObjectID]]
    {
        var result: [ObjectID: [ObjectID]] = [:]
        for source in sources where result[source] == nil {
            let ids = try destinationIDs(of: relationship, from: source)
            result[source] = ids
        }
        return result.filter { !$0.value.isEmpty }
    }

    /// `forEachValues(of:_:_:)` from whole rows, and one `row(for:)` per related row a key
    /// path goes through. Rows are streamed when every key path stays in the entity;
    /// otherwise they are read first, so that no read of a related row runs while the
    /// fetch's own read is under way.
    package func forEachValuesFromWholeRows(
        of keyPaths: [String], _ request: FetchRequest, _ body: ([StoredSlot]) throws -> Bool
    ) throws {
        guard let entity = model.schema(for: request.entityName) else {
            throw FetchError(entity: request.entityName, reason: "the model has no entity named '\(request.entityName)'")
        }
        let paths = try keyPaths.map { try StoredKeyPath($0, entity: entity, model: model) }
        guard paths.contains(where: { $0.positions.count > 1 }) else {
            try forEachRow(request) { row in
                try body(paths.map { $0.value(in: row) { _ in nil } })
            }
            return
        }
        var rows: [StoreRow] = []
        try forEachRow(request) { row in
            rows.append(row)
            return true
        }
        var related: [ObjectID: StoreRow?] = [:]
        func relatedRow(_ id: ObjectID) throws -> StoreRow? {
            if let known = related[id] { return known }
            let row = try row(for: id)
            related[id] = row
            return row
        }
        for row in rows where try !body(paths.map { try $0.value(in: row, related: relatedRow) }) { return }
    }
}
