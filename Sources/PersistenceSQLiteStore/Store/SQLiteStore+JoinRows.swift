import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

// Reading and writing the rows of join tables (see `JoinTableMapping`). Call the writing
// functions inside a write transaction.

extension SQLiteStore {
    // MARK: - Opening

    /// Creates the join tables a store made before they existed lacks, so that its model's
    /// many-to-many, inverse-less and ordered to-many relationships can be saved. An ordered
    /// to-many whose inverse is a to-one was read through that to-one's column before: its
    /// new table is filled from the column, in `_id` order, so no link is lost.
    func createMissingJoinTables() throws {
        let existing = Set(
            try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.textValue })
        let missing = schema.joinTables.filter { !existing.contains($0.name) }
        guard !missing.isEmpty else { return }
        try database.inTransaction(.immediate) {
            for table in missing {
                for statement in table.createStatements { try database.execute(statement) }
                try backfill(table)
            }
        }
    }

    private func backfill(_ table: JoinTableMapping) throws {
        for (entity, sides) in schema.joinSides {
            for (name, side) in sides where side.table == table && side.isSource {
                guard let r = model.schema(for: entity)?.relationship(named: name), r.isOrdered,
                    let inverse = r.inverseName,
                    let destination = model.schema(for: r.destinationEntityName),
                    destination.relationship(named: inverse)?.isToMany == false
                else { continue }
                let d = sqlIdentifier(destination.rootName)
                let column = "\(d).\(sqlIdentifier(inverse))"
                try database.execute(
                    "INSERT OR IGNORE INTO \(sqlIdentifier(table.name)) (\"source\", \"destination\", \"position\") "
                        + "SELECT \(column), \(d).\"_id\", row_number() OVER (PARTITION BY \(column) ORDER BY \(d).\"_id\") - 1 "
                        + "FROM \(d) WHERE \(column) IS NOT NULL")
                return
            }
        }
    }

    // MARK: - Writing

    /// Removes every link of the rows `primaryKeys` of `rootTable`, on either side of every
    /// join table: what deleting objects does. One statement per join table side and
    /// `KeyList` of keys, rather than a statement per deleted object.
    package func deleteJoinRows(rootTable: String, primaryKeys: [Int64]) throws {
        let chunks = KeyList.chunks(of: primaryKeys)
        for (table, column) in schema.joinTables(touching: rootTable) {
            for chunk in chunks {
                let statement = try database.cachedStatement(
                    "DELETE FROM \(sqlIdentifier(table.name)) WHERE \(sqlIdentifier(column)) IN (\(chunk.marks))")
                try statement.run(chunk.arguments)
            }
        }
    }

    /// Removes every link of `own` on `side` (before rewriting them all).
    package func deleteJoinRows(_ side: JoinSide, own: Int64) throws {
        let statement = try database.cachedStatement(
            "DELETE FROM \(sqlIdentifier(side.table.name)) WHERE \(sqlIdentifier(side.ownColumn)) = ?")
        try statement.run([.integer(own)])
    }

    /// Removes every link to `other` on `side` (the row's place in other objects'
    /// relationships through that side).
    package func deleteJoinRows(_ side: JoinSide, other: Int64) throws {
        let statement = try database.cachedStatement(
            "DELETE FROM \(sqlIdentifier(side.table.name)) WHERE \(sqlIdentifier(side.otherColumn)) = ?")
        try statement.run([.integer(other)])
    }

    /// Removes the link between `own` and `other`.
    package func deleteJoinRow(_ side: JoinSide, own: Int64, other: Int64) throws {
        let statement = try database.cachedStatement(
            "DELETE FROM \(sqlIdentifier(side.table.name)) WHERE \(sqlIdentifier(side.ownColumn)) = ? "
                + "AND \(sqlIdentifier(side.otherColumn)) = ?")
        try statement.run([.integer(own), .integer(other)])
    }

    /// Links `own` to `other`, at `position` in `own`'s relationship when it is ordered. An
    /// existing link (written from the other side) keeps its row and takes the position.
    package func upsertJoinRow(_ side: JoinSide, own: Int64, other: Int64, position: Int?) throws {
        let t = sqlIdentifier(side.table.name)
        let names = "\(sqlIdentifier(side.ownColumn)), \(sqlIdentifier(side.otherColumn))"
        if let column = side.positionColumn.map(sqlIdentifier), let position {
            let statement = try database.cachedStatement(
                "INSERT INTO \(t) (\(names), \(column)) VALUES (?, ?, ?) "
                    + "ON CONFLICT (\"source\", \"destination\") DO UPDATE SET \(column) = excluded.\(column)")
            try statement.run([.integer(own), .integer(other), .integer(Int64(position))])
        } else {
            let statement = try database.cachedStatement("INSERT OR IGNORE INTO \(t) (\(names)) VALUES (?, ?)")
            try statement.run([.integer(own), .integer(other)])
        }
    }

    /// Links `own` to `other` at the end of `own`'s ordered relationship (after its highest
    /// position), for a link added while the relationship was not loaded.
    package func appendJoinRow(_ side: JoinSide, own: Int64, other: Int64) throws {
        guard let column = side.positionColumn.map(sqlIdentifier) else {
            return try upsertJoinRow(side, own: own, other: other, position: nil)
        }
        let t = sqlIdentifier(side.table.name)
        let ownColumn = sqlIdentifier(side.ownColumn)
        let statement = try database.cachedStatement(
            "INSERT INTO \(t) (\(ownColumn), \(sqlIdentifier(side.otherColumn)), \(column)) "
                + "VALUES (?, ?, (SELECT coalesce(max(\(column)) + 1, 0) FROM \(t) WHERE \(ownColumn) = ?)) "
                + "ON CONFLICT (\"source\", \"destination\") DO UPDATE SET \(column) = excluded.\(column) "
                + "WHERE \(column) IS NULL")
        try statement.run([.integer(own), .integer(other), .integer(own)])
    }

    /// Links new rows to their destinations, many links per statement: each entry's
    /// `others` in order, which are positions 0, 1, … of an ordered side. Only for rows that
    /// have no link on `side` yet (a batch insert's rows, just written): a statement a link,
    /// as `appendJoinRow` writes them, would make linking the rows cost as much as writing
    /// them.
    package func insertJoinRows(_ side: JoinSide, links: [(own: Int64, others: [Int64])]) throws {
        var names = [sqlIdentifier(side.ownColumn), sqlIdentifier(side.otherColumn)]
        if let column = side.positionColumn { names.append(sqlIdentifier(column)) }
        let width = names.count
        let rowsPerStatement = min(4_000, 32_000 / width)
        let head = "INSERT INTO \(sqlIdentifier(side.table.name)) (\(names.joined(separator: ", "))) VALUES "
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        var arguments: [SQLiteValue] = []
        arguments.reserveCapacity(rowsPerStatement * width)
        func write() throws {
            let count = arguments.count / width
            guard count > 0 else { return }
            let statement = try database.cachedStatement(head + repeatElement(row, count: count).joined(separator: ", "))
            try statement.run(arguments)
            arguments.removeAll(keepingCapacity: true)
        }
        for (own, others) in links {
            for (position, other) in others.enumerated() {
                arguments.append(.integer(own))
                arguments.append(.integer(other))
                if width == 3 { arguments.append(.integer(Int64(position))) }
                if arguments.count == rowsPerStatement * width { try write() }
            }
        }
        try write()
    }

    // MARK: - Reading

    /// A query for the destination rows linked to `own` through `side`, in the
    /// relationship's order, restricted to `destination`'s hierarchy.
    package func joinQuery(_ side: JoinSide, own: Int64, destination: EntityMapping) -> StoreQuery {
        let link = "_link"
        var query = StoreQuery(table: destination.table)
        if !destination.schema.ancestors.isEmpty { query.entityNames = destination.schema.hierarchyNames }
        query.joins = [
            "JOIN \(sqlIdentifier(side.table.name)) AS \(sqlIdentifier(link)) ON \(sqlIdentifier(link))."
                + "\(sqlIdentifier(side.otherColumn)) = \(sqlIdentifier(destination.table.name)).\"_id\""
        ]
        query.condition = "\(sqlIdentifier(link)).\(sqlIdentifier(side.ownColumn)) = ?"
        query.arguments = [.integer(own)]
        query.ordering = side.ordering(alias: link)
        return query
    }
}

extension SQLiteStore {
    /// The primary key and entity name of each row a query selects, in order, without
    /// decoding the rows: how a relationship's destination IDs are read without objects.
    package func keysAndEntities(_ query: StoreQuery) throws -> [(key: Int64, entity: String)] {
        let t = sqlIdentifier(query.table.name)
        let entityColumn = query.table.hasEntityColumn ? ", \(t).\"_entity\"" : ""
        let sql = "SELECT \(t).\"_id\"\(entityColumn)" + query.fromClause + query.whereClause + query.tail
        let statement = try database.cachedStatement(sql)
        try statement.bind(query.arguments + query.orderingArguments)
        defer { statement.reset() }
        var result: [(Int64, String)] = []
        while try statement.step() {
            result.append((statement.int64(at: 0), query.table.hasEntityColumn ? statement.string(at: 1) : query.table.name))
        }
        return result
    }
}
