import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// The result of comparing a store's external data files with its rows.
package struct ExternalDataCheck: Sendable, CustomStringConvertible {
    /// Entries of the external data folder that no row references (leftovers of a crash
    /// that the next writable open sweeps).
    package var orphanedFiles: [String] = []
    /// References whose file is missing or of the wrong size, as `Book/p12.cover → <path>`.
    package var missingFiles: [String] = []
    /// The number of references found in the rows.
    package var referenceCount = 0

    /// Whether every reference has its file and every file a reference.
    package var isConsistent: Bool { orphanedFiles.isEmpty && missingFiles.isEmpty }

    /// A sentence listing what does not match, or saying that everything does.
    package var description: String {
        if isConsistent {
            return "\(referenceCount) external data files, each referenced by its row"
        }
        var parts: [String] = []
        if !orphanedFiles.isEmpty {
            parts.append("orphaned files: " + QuotedText.list(orphanedFiles))
        }
        if !missingFiles.isEmpty {
            parts.append("missing files: " + QuotedText.list(missingFiles))
        }
        return parts.joined(separator: "; ")
    }
}

extension SQLiteStore {
    // MARK: - Checking

    /// Compares the external data folder with the references in the rows: the check a
    /// crash test runs ("none orphaned, none missing"). Reads only.
    ///
    /// - Throws: `SQLiteError` when the rows cannot be read.
    package func checkExternalData() throws -> ExternalDataCheck {
        var check = ExternalDataCheck()
        guard let externalData else { return check }
        let references = try externalReferences()
        check.referenceCount = references.count
        var referenced: Set<String> = []
        for found in references {
            referenced.insert(found.reference.fileName)
            let path = externalData.path(of: found.reference)
            let size =
                (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
            if size?.intValue != found.reference.byteCount {
                check.missingFiles.append(
                    "\(found.table)/p\(found.primaryKey).\(found.column) → \(path)")
            }
        }
        check.orphanedFiles = externalData.entryNames().filter { !referenced.contains($0) }.sorted()
        return check
    }

    // MARK: - Writing (called by insertRow, updateRow, deleteRow)

    /// The values to write to `columns` (indexes into the table's columns) of a row of
    /// `mapping`, with each value larger than the threshold of an attribute that allows
    /// external storage written to a file and replaced by its reference. When `primaryKey`
    /// names an existing row, the files its old values in those columns reference are
    /// removed after the transaction commits.
    ///
    /// - Throws: `StoreError.externalData` when a file cannot be written.
    func externalizing(
        _ values: [SQLiteValue], columns: [Int], mapping: EntityMapping,
        replacingRow primaryKey: Int64? = nil
    ) throws -> [SQLiteValue] {
        guard let externalData else { return values }
        if let primaryKey {
            try removeExternalDataAfterCommit(
                table: mapping.table, primaryKey: primaryKey, columns: columns)
        }
        guard let external = externalData.externalColumns[mapping.schema.name] else {
            return values
        }
        var result = values
        for (column, attribute) in external {
            guard let index = columns.firstIndex(of: column),
                case .blob(let data) = values[index], data.count > externalData.threshold
            else { continue }
            let reference = try externalData.write(
                data, attribute: "\(mapping.schema.name).\(attribute.name)")
            result[index] = .text(reference.description)
        }
        return result
    }

    /// Marks the files the row's binary columns (all of them, or only `columns`) reference
    /// for removal once the write transaction commits. Call before deleting or updating
    /// the row.
    ///
    /// - Throws: `SQLiteError` when the row cannot be read.
    func removeExternalDataAfterCommit(
        table: TableMapping, primaryKey: Int64, columns: [Int]? = nil
    ) throws {
        guard let externalData, externalData.mayHoldFiles,
            let byteColumns = externalData.byteColumns[table.name]
        else { return }
        let names = byteColumns.filter { columns?.contains($0) ?? true }.map {
            sqlIdentifier(table.columns[$0].name)
        }
        guard !names.isEmpty else { return }
        // Only TEXT can be a reference: a BLOB stays unread.
        let selected = names.map { "CASE WHEN typeof(\($0)) = 'text' THEN \($0) END" }.joined(
            separator: ", ")
        let statement = try database.cachedStatement(
            "SELECT \(selected) FROM \(sqlIdentifier(table.name)) WHERE \"_id\" = ?")
        defer { statement.reset() }
        try statement.bind(primaryKey, at: 1)
        guard try statement.step() else { return }
        for index in names.indices {
            if case .text(let text) = statement.value(at: Int32(index)),
                let reference = ExternalDataStore.Reference(text)
            {
                externalData.removeAfterCommit(reference)
            }
        }
    }

    // MARK: - Reading (called by rows)

    /// Decodes a column value of a row, reading an external data file when the column
    /// holds a reference. Callers never see references.
    ///
    /// - Throws: `StoreError.unreadableExternalData` naming the object, attribute and
    ///   file; otherwise what `RowCodec.decode` throws.
    func decodeColumn(
        _ raw: SQLiteValue, for attribute: AttributeDescription, mapping: EntityMapping,
        primaryKey: Int64
    ) throws -> AttributeValue {
        guard case .text(let text) = raw, ExternalDataStore.holdsBytes(attribute),
            let reference = ExternalDataStore.Reference(text)
        else { return try RowCodec.decode(raw, for: attribute, entity: mapping.schema.name) }
        let object = "\(mapping.schema.name)/p\(primaryKey)"
        let name = "\(mapping.schema.name).\(attribute.name)"
        guard let externalData else {
            throw StoreError.unreadableExternalData(
                object: object, attribute: name, path: reference.fileName,
                reason: "an in-memory store has no external data files")
        }
        let data = try externalData.read(reference, object: object, attribute: name)
        return try RowCodec.decode(.blob(data), for: attribute, entity: mapping.schema.name)
    }

    // MARK: - Sweeping (called when the store opens)

    /// Removes the external data files no row references: leftovers of a crash between
    /// writing a file and committing, or between committing and removing a replaced file,
    /// and files a commit replaced while a reader still held an older snapshot.
    ///
    /// Only when no reader can be on a snapshot older than the latest commit (see
    /// `noReaderHoldsAnOlderSnapshot` and `ExternalDataStore`), and under SQLite's write lock,
    /// so that no other process is between writing its files and committing them; and only
    /// if no other connection committed between that check and the lock (`PRAGMA
    /// data_version`), since a reader that began just before such a commit could still
    /// reference the files it replaced. Sweeping is housekeeping: when any of this cannot
    /// be had, the store opens anyway and a later writable open sweeps.
    ///
    /// - Throws: `StoreError.externalData` when the support folder or its `_EXTERNAL_DATA`
    ///   folder is a symbolic link: sweeping through it would delete the files of the folder
    ///   it names, so the writable open is refused (see `ExternalDataFiles`).
    func sweepExternalData() throws {
        guard let externalData else { return }
        try ExternalDataFiles.refuseLinkedFolders(externalData.directory)
        guard !externalData.entryNames().isEmpty else { return }
        guard noReaderHoldsAnOlderSnapshot(),
            let version = try? database.scalar("PRAGMA data_version")
        else { return }
        try? database.inTransaction(.immediate) {
            guard try database.scalar("PRAGMA data_version") == version else { return }
            let referenced = Set(try externalReferences().map(\.reference.fileName))
            for name in externalData.entryNames() where !referenced.contains(name) {
                externalData.removeEntry(named: name)
            }
        }
    }

    /// Whether every reader of the file, in any process, reads the latest commit: true when
    /// a `PRAGMA wal_checkpoint(RESTART)` completes without waiting (SQLite completes it only
    /// when no reader still uses older frames of the write-ahead log, and reports "busy"
    /// otherwise). Waits for nobody: the busy timeout is 0 for the checkpoint. False when
    /// it cannot tell.
    func noReaderHoldsAnOlderSnapshot() -> Bool {
        guard let timeout = try? database.scalar("PRAGMA busy_timeout").int64Value else { return false }
        defer { try? database.execute("PRAGMA busy_timeout = \(timeout)") }
        guard (try? database.execute("PRAGMA busy_timeout = 0")) != nil,
            let row = try? database.query("PRAGMA wal_checkpoint(RESTART)").first
        else { return false }
        return row.first == .integer(0)
    }

    /// Every reference in the store's rows, with where it was found.
    private func externalReferences() throws -> [(
        table: String, primaryKey: Int64, column: String, reference: ExternalDataStore.Reference
    )] {
        var found:
            [(
                table: String, primaryKey: Int64, column: String,
                reference: ExternalDataStore.Reference
            )] = []
        guard let externalData else { return [] }
        for table in schema.tables.values.sorted(by: { $0.name < $1.name }) {
            for column in (externalData.byteColumns[table.name] ?? []).map({ table.columns[$0] }) {
                let name = sqlIdentifier(column.name)
                let rows = try database.query(
                    "SELECT \"_id\", \(name) FROM \(sqlIdentifier(table.name)) WHERE typeof(\(name)) = 'text'"
                )
                for row in rows {
                    guard case .integer(let key) = row[0], case .text(let text) = row[1],
                        let reference = ExternalDataStore.Reference(text)
                    else { continue }
                    found.append((table.name, key, column.name, reference))
                }
            }
        }
        return found
    }
}
