import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// The value check of `StoreCheck`: every stored value of every row read as its attribute's
/// type, against the model's rules a row can break on its own.
///
/// A store edited by hand (`UPDATE Book SET price = 'abc'` in the `sqlite3` shell) passes
/// SQLite's integrity check, yet every command that reads the row fails on it. The check
/// finds each such value, as `Book/p3.price holds TEXT 'abc', which is not a Decimal`:
/// a value that cannot be read as its type (`RowCodec.decode`, the store's own reading), a
/// NULL where the attribute is required, an Integer 16 or 32 out of its range, and a row of
/// a shared table whose `_entity` names no entity of its hierarchy.
extension StoreCheck {
    /// The most value problems listed one per line; the rest are counted in one more line.
    public static let maximumValueProblems = 20

    /// Reads every row of every table and lists the values that cannot be read or break the
    /// model's rules (capped at `maximumValueProblems` lines and an "and N more" line).
    ///
    /// - Throws: `SQLiteError` when a table cannot be read.
    static func checkValues(_ store: SQLiteStore, _ database: Database) throws -> [String] {
        var problems: [String] = []
        for table in store.schema.tables.values.sorted(by: { $0.name < $1.name }) {
            let list =
                ["\"_id\"", table.hasEntityColumn ? "\"_entity\"" : "NULL"]
                + table.columns.map { sqlIdentifier($0.name) }
            let statement = try database.prepare(
                "SELECT \(list.joined(separator: ", ")) FROM \(sqlIdentifier(table.name)) ORDER BY \"_id\"")
            while try statement.step() {
                let row = (0..<Int32(list.count)).map { statement.value(at: $0) }
                problems += rowProblems(row, table: table, schema: store.schema)
            }
        }
        guard problems.count > maximumValueProblems else { return problems }
        let more = problems.count - maximumValueProblems
        return problems.prefix(maximumValueProblems)
            + ["and \(more) more \(more == 1 ? "value" : "values") that cannot be read or break the model"]
    }

    /// The problems of one row: `_id`, `_entity` (or NULL), then the table's columns.
    private static func rowProblems(_ row: [SQLiteValue], table: TableMapping, schema: StoreSchema) -> [String] {
        let key = row[0].int64Value.map(String.init) ?? "?"
        let entityName = table.hasEntityColumn ? row[1].textValue : table.name
        guard let entityName, let mapping = schema.entities[entityName], mapping.table.name == table.name else {
            return ["\(table.name)/p\(key) has _entity \(describe(row[1])), which names no entity of \(table.name)'s hierarchy"]
        }
        var problems: [String] = []
        for (position, property) in mapping.schema.properties.enumerated() {
            guard case .attribute(let attribute) = property, attribute.isStored,
                let column = mapping.columnIndex[position]
            else { continue }
            if let problem = valueProblem(row[2 + column], attribute: attribute, entity: entityName) {
                problems.append("\(entityName)/p\(key).\(attribute.name) \(problem)")
            }
        }
        return problems
    }

    /// What is wrong with one stored value, as a phrase, or nil.
    private static func valueProblem(_ raw: SQLiteValue, attribute: AttributeDescription, entity: String) -> String? {
        if case .null = raw {
            return attribute.isOptional ? nil : "is NULL, but the attribute is required"
        }
        // A reference to an external data file: its file is the external data check's.
        if ExternalDataStore.holdsBytes(attribute), case .text(let text) = raw,
            ExternalDataStore.Reference(text) != nil
        {
            return nil
        }
        // A transformable's bytes are its transformer's to read, which a check need not have.
        if attribute.type == .transformable {
            if case .blob = raw { return nil }
            return "holds \(describe(raw)), which is not a Transformable value's bytes"
        }
        let value: AttributeValue
        do { value = try RowCodec.decode(raw, for: attribute, entity: entity) } catch {
            return "holds \(describe(raw)), which is not \(article(attribute.type))"
        }
        if case .integer(let number) = value {
            let range: ClosedRange<Int64>? =
                attribute.type == .integer16 ? Int64(Int16.min)...Int64(Int16.max)
                : attribute.type == .integer32 ? Int64(Int32.min)...Int64(Int32.max) : nil
            if let range, !range.contains(number) {
                return "holds \(number), which is out of the range of \(article(attribute.type))"
            }
        }
        return nil
    }

    /// A stored value for a message: its storage class and, for short values, the value.
    private static func describe(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let v): return "INTEGER \(v)"
        case .real(let v): return "REAL \(v)"
        case .text(let t): return t.count <= 40 ? "TEXT '\(t)'" : "TEXT of \(t.count) characters"
        case .blob(let d): return "a BLOB of \(d.count) \(d.count == 1 ? "byte" : "bytes")"
        }
    }

    /// "a Decimal", "an Integer 16": the type's model name with its article.
    private static func article(_ type: AttributeType) -> String {
        let name = type.rawValue
        // By sound: "a UUID", "a URI", "an Integer 16", "an Object ID".
        return (["Integer", "Object", "Undefined"].contains { name.hasPrefix($0) } ? "an " : "a ") + name
    }
}
