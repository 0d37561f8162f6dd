#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceStore

/// The links of to-many relationships kept in join tables (`RelationalJoinTables`): a
/// transaction's writes of them. New links are buffered and written many per statement
/// (`PendingLinks`); removals are one statement each; a batch insert's links are one
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

    /// Buffered (see `bufferLink`): links are written many per statement.
    func setLink(entity: String, relationship: String, from own: Int64, to other: Int64, position: Int?) throws {
        guard let side = store.schema.joinSide(entity: entity, relationship: relationship) else { return }
        let kind: PendingLinks.Kind = side.positionColumn != nil && position != nil ? .setAt : .set
        try bufferLink(side, kind, own: own, other: other, position: position.map(Int64.init))
    }

    /// Buffered (see `bufferLink`): each link after the stored ones of its own object and
    /// those appended before it in the transaction.
    func appendLink(entity: String, relationship: String, from own: Int64, to other: Int64) throws {
        guard let side = store.schema.joinSide(entity: entity, relationship: relationship) else { return }
        guard side.positionColumn != nil else {
            return try bufferLink(side, .set, own: own, other: other, position: nil)
        }
        try bufferLink(side, .append, own: own, other: other, position: nil)
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
