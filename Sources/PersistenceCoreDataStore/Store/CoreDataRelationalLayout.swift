import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceSQLite

/// Core Data's layout (`CoreDataLayout`) and encodings as the relational core compiles
/// fetches over them: `Z<ROOT>` tables keyed by `Z_PK`, sub-entities told apart by `Z_ENT`,
/// `Z<NAME>` columns, dates as seconds since 2001, UUIDs as their 16 bytes, NaN as the text
/// `NaN`, `[c]`/`[d]`/`[cd]` through the connection's `predicate_fold`.
///
/// Decimals are left to memory: their `DECIMAL` column keeps an INTEGER or a REAL where that
/// is exact and the text otherwise, which SQL cannot order as numbers. So are transformable
/// values, and binary values that may be kept outside the row (a marker byte first).
struct CoreDataRelationalLayout: RelationalLayout {
    let layout: CoreDataLayout
    let model: ManagedObjectModel

    var keyColumn: String { "Z_PK" }

    func tableName(root rootName: String) -> String? { layout.tables[rootName]?.name }

    func entityRestriction(alias: String, entityNames: [String], binder _: inout RelationalBinder) -> String? {
        let numbers = entityNames.compactMap { layout.entities[$0]?.number }
        return "\(quotedIdentifier(alias)).\"Z_ENT\" IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }

    func column(property: String, entity: EntitySchema) -> String? {
        guard let table = layout.tables[entity.rootName], let index = table.columnIndex[property] else { return nil }
        return table.columns[index].name
    }

    func toManyLink(relationship name: String, entity: EntitySchema) -> RelationalToManyLink? {
        if let side = layout.joinSide(entity: entity.name, relationship: name) {
            return .joinTable(table: side.table, ownColumn: side.ownColumn, otherColumn: side.otherColumn)
        }
        return inverseColumnLink(relationship: name, entity: entity)
    }

    func encoded(_ literal: PredicateLiteral, for attribute: AttributeDescription) -> RelationalValue? {
        switch (attribute.type, literal) {
        // Integers are bound as integers: SQLite compares an INTEGER with a REAL exactly, as
        // the evaluator compares numbers.
        case (.integer16, .integer(let i)), (.integer32, .integer(let i)), (.integer64, .integer(let i)),
            (.double, .integer(let i)), (.float, .integer(let i)), (.boolean, .integer(let i)):
            return .integer(i)
        case (.integer16, .double(let d)), (.integer32, .double(let d)), (.integer64, .double(let d)),
            (.double, .double(let d)), (.float, .double(let d)):
            return d.isNaN ? nil : .real(d)
        case (.boolean, .bool(let b)): return .integer(b ? 1 : 0)
        case (.date, .date(let d)): return .real(CoreDataTimestamp.seconds(of: d))
        case (.uuid, .uuid(let u)): return .blob(withUnsafeBytes(of: u.uuid) { Data($0) })
        case (.uri, .url(let u)): return .text(u.absoluteString)
        case (.binaryData, .data(let d)) where !attribute.allowsExternalBinaryDataStorage: return .blob(d)
        default: return nil
        }
    }

    func comparesInSQL(_ attribute: AttributeDescription) -> Bool {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean, .string, .date, .uuid, .uri: true
        case .binaryData: !attribute.allowsExternalBinaryDataStorage
        case .decimal, .transformable, .objectID, .undefined: false
        }
    }

    func sortsInSQL(_ attribute: AttributeDescription) -> Bool { comparesInSQL(attribute) }

    /// Decimals: their column keeps an INTEGER or a REAL where that is exact.
    func narrowsApproximately(_ attribute: AttributeDescription) -> Bool { attribute.type == .decimal }

    func comparedValue(_ column: String, of attribute: AttributeDescription) -> String {
        switch attribute.type {
        // NaN, kept as the text `NaN`, read as NULL: unordered, as in memory.
        case .double, .float: "(CASE WHEN typeof(\(column)) = 'text' THEN NULL ELSE \(column) END)"
        default: column
        }
    }

    func folded(_ sql: String, _ options: PredicateNode.Options) -> String? {
        "predicate_fold(\(sql), \(options.rawValue))"
    }

    /// The connection's `predicate_contains_folded`, which matches each row's UTF-8 in place
    /// (no folded copy of the text made for the usual all-ASCII row), so that a search or a
    /// `CONTAINS[cd]` over every row of a table costs little more than SQLite's own `instr`.
    func foldedContains(_ sql: String, _ needle: String) -> String? {
        "predicate_contains_folded(\(sql), \(needle))"
    }

    /// The connection's `predicate_search_rank` (`CoreDataSQLFunctions`), which folds the
    /// fields and ranks them as `SearchText.rank` does: a search's matches are ordered and
    /// windowed in SQL, and only the rows listed are decoded.
    func searchRank(_ phrase: String, fields: [String]) -> String? {
        "predicate_search_rank(\(([phrase] + fields).joined(separator: ", ")))"
    }
}

extension SQLiteValue {
    /// The SQLite value of a value the relational core bound.
    init(_ value: RelationalValue) {
        switch value {
        case .null: self = .null
        case .integer(let v): self = .integer(v)
        case .real(let v): self = .real(v)
        case .text(let v): self = .text(v)
        case .blob(let v): self = .blob(v)
        }
    }
}
