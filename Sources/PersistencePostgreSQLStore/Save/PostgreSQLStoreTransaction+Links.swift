#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceStore

/// The links of to-many relationships kept in join tables (`RelationalJoinTables`): a
/// transaction's writes of them, each one statement or, for a batch insert's links, one
/// statement of three arrays.
extension PostgreSQLStoreTransaction {
    var storesAnyLinksInJoinTables: Bool { !store.schema.joinTables.isEmpty }

    func storesLinksInJoinTable(entity: String, relationship: String) -> Bool {
        store.schema.joinSide(entity: entity, relationship: relationship) != nil
    }

    func removeLinks(entity: String, relationship: String, from own: Int64) throws {
        guard let side = store.schema.joinSide(entity: entity, relationship: relationship) else { return }
        try connection.execute(
            "DELETE FROM \(pgIdentifier(side.table.name)) WHERE \(pgIdentifier(side.ownColumn)) = $1", [.integer(own)])
    }

    func removeLinks(entity: String, relationship: String, to other: Int64) throws {
        guard let side = store.schema.joinSide(entity: entity, relationship: relationship) else { return }
        try connection.execute(
            "DELETE FROM \(pgIdentifier(side.table.name)) WHERE \(pgIdentifier(side.otherColumn)) = $1", [.integer(other)])
    }

    func removeLink(entity: String, relationship: String, from own: Int64, to other: Int64) throws {
        guard let side = store.schema.joinSide(entity: entity, relationship: relationship) else { return }
        try connection.execute(
            "DELETE FROM \(pgIdentifier(side.table.name)) WHERE \(pgIdentifier(side.ownColumn)) = $1 "
                + "AND \(pgIdentifier(side.otherColumn)) = $2", [.integer(own), .integer(other)])
    }

    func setLink(entity: String, relationship: String, from own: Int64, to other: Int64, position: Int?) throws {
        guard let side = store.schema.joinSide(entity: entity, relationship: relationship) else { return }
        let t = pgIdentifier(side.table.name)
        let names = "\(pgIdentifier(side.ownColumn)), \(pgIdentifier(side.otherColumn))"
        if let column = side.positionColumn.map(pgIdentifier), let position {
            try connection.execute(
                "INSERT INTO \(t) (\(names), \(column)) VALUES ($1, $2, $3) "
                    + "ON CONFLICT (\"source\", \"destination\") DO UPDATE SET \(column) = excluded.\(column)",
                [.integer(own), .integer(other), .integer(Int64(position))])
        } else {
            try connection.execute(
                "INSERT INTO \(t) (\(names)) VALUES ($1, $2) ON CONFLICT (\"source\", \"destination\") DO NOTHING",
                [.integer(own), .integer(other)])
        }
    }

    func appendLink(entity: String, relationship: String, from own: Int64, to other: Int64) throws {
        guard let side = store.schema.joinSide(entity: entity, relationship: relationship) else { return }
        guard let column = side.positionColumn.map(pgIdentifier) else {
            return try setLink(entity: entity, relationship: relationship, from: own, to: other, position: nil)
        }
        let t = pgIdentifier(side.table.name)
        let ownColumn = pgIdentifier(side.ownColumn)
        try connection.execute(
            "INSERT INTO \(t) (\(ownColumn), \(pgIdentifier(side.otherColumn)), \(column)) "
                + "VALUES ($1, $2, (SELECT coalesce(max(\(column)) + 1, 0) FROM \(t) WHERE \(ownColumn) = $1)) "
                + "ON CONFLICT (\"source\", \"destination\") DO UPDATE SET \(column) = excluded.\(column) "
                + "WHERE \(t).\(column) IS NULL",
            [.integer(own), .integer(other)])
    }

    /// Every link of the new rows in one statement: the columns as three arrays, unnested
    /// (a rows' links are a list of destinations each, in order, so positions count from 0).
    func linkNewRows(entity: String, relationship: String, links: [(own: Int64, others: [Int64])]) throws {
        guard let side = store.schema.joinSide(entity: entity, relationship: relationship) else { return }
        var owns: [Int64] = []
        var others: [Int64] = []
        var positions: [Int64] = []
        for (own, destinations) in links {
            for (position, other) in destinations.enumerated() {
                owns.append(own)
                others.append(other)
                positions.append(Int64(position))
            }
        }
        guard !owns.isEmpty else { return }
        var names = [pgIdentifier(side.ownColumn), pgIdentifier(side.otherColumn)]
        var parameters: [PGValue] = [.integerArray(owns), .integerArray(others)]
        if let column = side.positionColumn {
            names.append(pgIdentifier(column))
            parameters.append(.integerArray(positions))
        }
        let arrays = parameters.indices.map { "$\($0 + 1)::bigint[]" }.joined(separator: ", ")
        try connection.execute(
            "INSERT INTO \(pgIdentifier(side.table.name)) (\(names.joined(separator: ", "))) SELECT * FROM unnest(\(arrays))",
            parameters)
    }

    func removeAllLinks(rootEntity: String, keys: [Int64]) throws {
        guard !keys.isEmpty else { return }
        // One statement per join table side, the keys as one array parameter.
        for (table, column) in store.schema.joinTables(touching: rootEntity) {
            try connection.execute(
                "DELETE FROM \(pgIdentifier(table.name)) WHERE \(pgIdentifier(column)) = ANY($1)", [.integerArray(keys)])
        }
    }
}
#endif
