import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
/// Re-encoding of transformable values whose value transformer changed
/// (`MigrationStep.Kind.changeTransformer`), in the migration's transaction: a value that
/// cannot be re-encoded rolls everything back.
extension MigrationExecutor {
    /// How many rows are read at a time while re-encoding, so memory follows the batch.
    static let reencodingBatch = 500

    /// Decodes every stored value of each attribute whose transformer changed with the old
    /// transformer and stores what the new one encodes. A value kept in a file beside the
    /// store gets a new file (see `MigrationFiles`); the rest stay in their rows.
    ///
    /// - Throws: `MigrationError` naming the attribute and the missing transformer
    ///   (`.missingValueTransformer`), or the object whose value can't be re-encoded
    ///   (`.invalidData`); `StoreError` when a file cannot be read or written.
    func reencodeTransformedValues() throws {
        for change in try plan.transformerChanges() {
            guard let mapping = destinationSchema.entities[change.entity],
                mapping.table.column(named: change.attribute.name) != nil
            else { continue }
            let table = sqlIdentifier(mapping.table.name), column = sqlIdentifier(change.attribute.name)
            var filter = "\(column) IS NOT NULL AND \"_id\" > ?"
            if mapping.table.hasEntityColumn {
                filter += " AND \"_entity\" IN (\(mapping.schema.hierarchyNames.map(sqlLiteral).joined(separator: ", ")))"
            }
            let select = "SELECT \"_id\", \(column) FROM \(table) WHERE \(filter) ORDER BY \"_id\" LIMIT \(Self.reencodingBatch)"
            let update = try database.prepare("UPDATE \(table) SET \(column) = ? WHERE \"_id\" = ?")
            let name = "\(change.entity).\(change.attribute.name)"
            var last = Int64.min
            while true {
                let rows = try database.query(select, [.integer(last)])
                guard !rows.isEmpty else { break }
                for row in rows {
                    guard let key = row[0].int64Value else { continue }
                    last = key
                    switch row[1] {
                    case .blob(let data):
                        try update.run([.blob(try change.reencode(data, key: key)), .integer(key)])
                    case .text(let text):
                        guard let reference = ExternalDataStore.Reference(text), let files else {
                            throw MigrationError(
                                .invalidData, entity: change.entity, property: change.attribute.name,
                                reason: "\(change.entity) \(key) holds TEXT that is neither bytes nor a reference "
                                    + "to a file of external data, so it can't be re-encoded")
                        }
                        let data = try files.read(reference, object: "\(change.entity)/p\(key)", attribute: name)
                        let written = try files.write(try change.reencode(data, key: key), attribute: name)
                        try update.run([.text(written.description), .integer(key)])
                    default:
                        throw MigrationError(
                            .invalidData, entity: change.entity, property: change.attribute.name,
                            reason: "\(change.entity) \(key) holds \(row[1].typeName) where bytes are expected, "
                                + "so it can't be re-encoded")
                    }
                }
            }
        }
    }
}
