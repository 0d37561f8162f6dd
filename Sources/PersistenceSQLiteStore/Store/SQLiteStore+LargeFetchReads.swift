import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

// The reads behind Core Data's tools for large fetches, each one statement (per 512 keys)
// where the protocol's defaults read once per object: a batch of faults by key, a to-many
// for many sources at once, and a dictionary result's columns without the rest of the row.

extension SQLiteStore {
    /// The rows with these IDs, read by `"_id" IN (…)`: one statement per table and 512 keys.
    package func rows(for ids: [ObjectID]) throws -> [StoreRow] {
        var keysByTable: [String: [Int64]] = [:]
        for id in ids where id.storeIdentifier == identifier {
            if let key = id.primaryKey { keysByTable[id.rootName, default: []].append(key) }
        }
        var result: [StoreRow] = []
        result.reserveCapacity(ids.count)
        for (rootName, keys) in keysByTable {
            guard let table = schema.tables[rootName] else { continue }
            for chunk in KeyList.chunks(of: keys) {
                var query = StoreQuery(table: table)
                query.condition = "\(sqlIdentifier(table.name)).\"_id\" IN (\(chunk.marks))"
                query.arguments = chunk.arguments
                try rows(query) { row in
                    result.append(row)
                    return true
                }
            }
        }
        return result
    }

    /// The destinations of a to-many for many sources: through the inverse to-one's column
    /// (`inverse IN (…)`, one statement per 512 sources), or through the join table (its
    /// links for the sources, then the linked rows by key).
    package func destinationRows(of relationship: RelationshipDescription, from sources: [ObjectID]) throws
        -> [ObjectID: [StoreRow]]
    {
        guard let destination = schema.entities[relationship.destinationEntityName] else { return [:] }
        var sourceByKey: [Int64: ObjectID] = [:]
        for source in sources where source.storeIdentifier == identifier {
            if let key = source.primaryKey { sourceByKey[key] = source }
        }
        let keys = sourceByKey.keys.sorted()
        guard !keys.isEmpty else { return [:] }
        if let side = sources.lazy.compactMap({ self.schema.joinSide(entity: $0.entityName, relationship: relationship.name) }).first {
            do {
                return try destinationRows(through: side, keys: keys, sourceByKey: sourceByKey, destination: destination)
            } catch {
                // A store written before join tables existed, opened read-only, has none: the
                // inverse to-one's column may still answer, one source at a time.
                return try destinationRowsOneSourceAtATime(of: relationship, from: Array(sourceByKey.values))
            }
        }
        guard let inverseName = relationship.inverseName,
            destination.schema.relationship(named: inverseName)?.isToMany == false,
            let inversePosition = destination.schema.propertyIndex[inverseName]
        else { return [:] }
        let t = sqlIdentifier(destination.table.name)
        var result: [ObjectID: [StoreRow]] = [:]
        for chunk in KeyList.chunks(of: keys) {
            var query = StoreQuery(table: destination.table)
            // As in FetchCompiler: a root entity covers its whole table.
            if !destination.schema.ancestors.isEmpty { query.entityNames = destination.schema.hierarchyNames }
            query.condition = "\(t).\(sqlIdentifier(inverseName)) IN (\(chunk.marks))"
            query.arguments = chunk.arguments
            // Key order is each source's insertion order, as `forEachDestinationRow` reads it.
            query.ordering = "\(t).\"_id\""
            try rows(query) { row in
                if inversePosition < row.slots.count, case .toOneFault(let id?) = row.slots[inversePosition],
                    let key = id.primaryKey, let source = sourceByKey[key]
                {
                    result[source, default: []].append(row)
                }
                return true
            }
        }
        return result
    }

    /// The destination IDs of a to-many for many sources, one statement per 512 sources:
    /// the links of the sources' join table joined to the destination rows (for their
    /// entity), or the rows whose inverse to-one column holds a source's key; each source's
    /// IDs in the order `destinationIDs(of:from:)` reads them.
    package func destinationIDs(of relationship: RelationshipDescription, from sources: [ObjectID]) throws
        -> [ObjectID: [ObjectID]]
    {
        guard let destination = schema.entities[relationship.destinationEntityName] else { return [:] }
        // Sources of several sub-entities may keep their links apart: one group each.
        var groups: [String: [Int64: ObjectID]] = [:]
        for source in sources where source.storeIdentifier == identifier {
            if let key = source.primaryKey { groups[source.entityName, default: [:]][key] = source }
        }
        var result: [ObjectID: [ObjectID]] = [:]
        for (entityName, sourceByKey) in groups {
            let t = sqlIdentifier(destination.table.name)
            var query: StoreQuery
            let owner: String
            if let side = schema.joinSide(entity: entityName, relationship: relationship.name) {
                query = joinQuery(side, own: 0, destination: destination)
                owner = "\(sqlIdentifier("_link")).\(sqlIdentifier(side.ownColumn))"
                query.ordering = "\(owner), " + side.ordering(alias: "_link")
            } else if let inverseName = relationship.inverseName,
                destination.schema.relationship(named: inverseName)?.isToMany == false
            {
                query = StoreQuery(table: destination.table)
                // As in FetchCompiler: a root entity covers its whole table.
                if !destination.schema.ancestors.isEmpty { query.entityNames = destination.schema.hierarchyNames }
                owner = "\(t).\(sqlIdentifier(inverseName))"
                // Key order is each source's insertion order, as `destinationIDs(of:from:)` reads it.
                query.ordering = "\(owner), \(t).\"_id\""
            } else {
                continue
            }
            let entityColumn = destination.table.hasEntityColumn ? ", \(t).\"_entity\"" : ""
            do {
                for chunk in KeyList.chunks(of: sourceByKey.keys.sorted()) {
                    query.condition = "\(owner) IN (\(chunk.marks))"
                    query.arguments = chunk.arguments
                    let statement = try database.cachedStatement(
                        "SELECT \(owner), \(t).\"_id\"\(entityColumn)" + query.fromClause + query.whereClause + query.tail)
                    defer { statement.reset() }
                    try statement.bind(query.arguments + query.orderingArguments)
                    while try statement.step() {
                        guard let source = sourceByKey[statement.int64(at: 0)] else { continue }
                        let entity = destination.table.hasEntityColumn ? statement.string(at: 2) : destination.table.name
                        let scope = idScope(entityName: entity, rootName: destination.schema.rootName)
                        result[source, default: []].append(ObjectID(scope: scope, key: .permanent(statement.int64(at: 1))))
                    }
                }
            } catch {
                // A store written before join tables existed, opened read-only, has none: the
                // inverse to-one's column may still answer, one source at a time.
                for source in sourceByKey.values { result[source] = try destinationIDs(of: relationship, from: source) }
            }
        }
        return result
    }

    /// The destinations linked to each source key through a join table, in each source's
    /// order: the links first, then the linked rows by key.
    private func destinationRows(
        through side: JoinSide, keys: [Int64], sourceByKey: [Int64: ObjectID], destination: EntityMapping
    ) throws -> [ObjectID: [StoreRow]] {
        let link = sqlIdentifier(side.table.name)
        let own = "\(link).\(sqlIdentifier(side.ownColumn))"
        var links: [(own: Int64, other: Int64)] = []
        for chunk in KeyList.chunks(of: keys) {
            let statement = try database.cachedStatement(
                "SELECT \(own), \(link).\(sqlIdentifier(side.otherColumn)) FROM \(link) WHERE \(own) IN (\(chunk.marks)) "
                    + "ORDER BY \(own), \(side.ordering(alias: side.table.name))")
            defer { statement.reset() }
            try statement.bind(chunk.arguments)
            while try statement.step() { links.append((statement.int64(at: 0), statement.int64(at: 1))) }
        }
        let scope = idScope(entityName: destination.schema.name, rootName: destination.table.name)
        var rowByKey: [Int64: StoreRow] = [:]
        let others = Set(links.map(\.other)).map { ObjectID(scope: scope, key: .permanent($0)) }
        for row in try rows(for: others) where destination.schema.includes(row.schema.name) {
            rowByKey[row.primaryKey] = row
        }
        var result: [ObjectID: [StoreRow]] = [:]
        for link in links {
            guard let source = sourceByKey[link.own], let row = rowByKey[link.other] else { continue }
            result[source, default: []].append(row)
        }
        return result
    }

    /// A dictionary result's values, reading only their columns (joining the tables of
    /// to-one steps) in one statement.
    package func forEachValues(
        of keyPaths: [String], _ request: FetchRequest, _ body: ([StoredSlot]) throws -> Bool
    ) throws {
        try surfacingRegexFailure(of: request) { try forEachValuesUnchecked(of: keyPaths, request, body) }
    }

    /// `forEachValues(of:_:_:)` without turning a `regexp` failure back into its predicate's.
    private func forEachValuesUnchecked(
        of keyPaths: [String], _ request: FetchRequest, _ body: ([StoredSlot]) throws -> Bool
    ) throws {
        var compiler = try FetchCompiler(schema: schema, entityName: request.entityName)
        compiler.usesSearchIndexes = searchIndexesAreUsable
        var query = try compiler.query(for: request)
        fetchTermsOutsideCore += compiler.termsOutsideCore
        var selected: [String] = []
        var readers: [ValueReader] = []
        for keyPath in keyPaths {
            let path = try StoredKeyPath(keyPath, entity: compiler.mapping.schema, model: model)
            let column = Int32(selected.count)
            selected.append(try compiler.column(forKeyPath: keyPath).sql)
            // The entity the last step is read from.
            var mapping = compiler.mapping
            for position in path.positions.dropLast() {
                guard case .relationship(let r) = mapping.schema.properties[position],
                    let next = schema.entities[r.destinationEntityName]
                else { break }
                mapping = next
            }
            guard let last = path.positions.last else { continue }
            switch mapping.schema.properties[last] {
            case .relationship(let r):
                let table = schema.entities[r.destinationEntityName]?.table.name ?? r.destinationEntityName
                readers.append(.toOne(column: column, scope: idScope(entityName: r.destinationEntityName, rootName: table)))
            case .attribute(let attribute):
                // Bytes kept in an external file are found by their row's key.
                var keyColumn: Int32?
                if ExternalDataStore.holdsBytes(attribute) {
                    keyColumn = Int32(selected.count)
                    let prefix = keyPath.split(separator: ".").dropLast().joined(separator: ".")
                    selected.append(
                        prefix.isEmpty
                            ? "\(sqlIdentifier(compiler.rootAlias)).\"_id\"" : try compiler.column(forKeyPath: prefix).sql)
                }
                readers.append(
                    .attribute(
                        column: column, reader: RowDecodePlan.Reader(attribute), attribute: attribute, mapping: mapping,
                        keyColumn: keyColumn))
            }
        }
        query.joins = compiler.joins
        let columns = selected.isEmpty ? "1" : selected.joined(separator: ", ")
        // Values that are all sort keys are in the sort keys' index (a one-column listing of
        // UUIDs walks their index and never reads the table): that walk is kept.
        let order = readingOrder(
            of: query, indexHoldsColumns: Set(keyPaths).isSubset(of: request.sortDescriptors.map(\.keyPath)))
        try withTemporaryStorage(inFile: order.spillsToFile) {
            let statement = try database.cachedStatement(
                "SELECT " + columns + query.fromClause + query.whereClause + order.tail)
            defer { statement.reset() }
            try statement.bind(query.arguments + query.orderingArguments)
            while try statement.step() {
                var values: [StoredSlot] = []
                values.reserveCapacity(readers.count)
                for reader in readers { values.append(try reader.slot(of: statement, store: self)) }
                if try !body(values) { break }
            }
        }
    }
}

/// How one value of a dictionary result is read from its statement's columns.
private enum ValueReader {
    /// A to-one's destination key, as an ID in `scope`.
    case toOne(column: Int32, scope: ObjectID.Scope)
    /// An attribute's column, with the column of its row's key when its bytes may be kept
    /// in an external file.
    case attribute(
        column: Int32, reader: RowDecodePlan.Reader, attribute: AttributeDescription, mapping: EntityMapping,
        keyColumn: Int32?)

    func slot(of statement: Statement, store: SQLiteStore) throws -> StoredSlot {
        switch self {
        case .toOne(let column, let scope):
            guard case .integer(let key) = statement.value(at: column) else { return .toOneFault(nil) }
            return .toOneFault(ObjectID(scope: scope, key: .permanent(key)))
        case .attribute(let column, let reader, let attribute, let mapping, let keyColumn):
            if let slot = reader.slot(at: column, of: statement) { return slot }
            let key = keyColumn.map { statement.int64(at: $0) } ?? 0
            return .value(try store.decodeColumn(statement.value(at: column), for: attribute, mapping: mapping, primaryKey: key))
        }
    }
}
