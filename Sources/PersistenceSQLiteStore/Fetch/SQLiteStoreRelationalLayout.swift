import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceSQLiteFiles

/// The SQLite store's tables (`StoreSchema`) and encodings as the relational core compiles
/// fetches over them: a table per root entity keyed by `_id`, sub-entities told apart by the
/// `_entity` name, a column per stored attribute and to-one named after it, join tables
/// `<Entity>_<relationship>`, and the values as `RowCodec` writes them.
///
/// What it compares exactly, as the store's own compiler always has (and in step with
/// `Number.compare` and the evaluator): integers and booleans (as 0 and 1) against integers
/// and doubles; doubles as REAL with NaN (kept as the text `NaN`) read as NULL, so unordered;
/// a double against a Decimal literal through the double nearest the decimal; dates as
/// seconds since 1970 (ISO 8601 date text included); strings by code point (SQLite's
/// `BINARY`), folded for `[c]`, `[d]`, `[cd]` by the store's `canonical` and
/// `predicate_fold` functions; UUIDs as their text, URLs as their absolute string, data
/// bytewise; decimals (canonical text) under `COLLATE DECIMAL`, with NaN ruled out by name
/// and a REAL bound checked first below a value (`ownComparison`, in `+Decimal`).
package struct SQLiteStoreRelationalLayout: RelationalLayout {
    /// The store's mapping of the model onto tables.
    package let schema: StoreSchema

    /// A layout over `schema`'s tables.
    package init(schema: StoreSchema) { self.schema = schema }

    package var model: ManagedObjectModel { schema.model }

    package var keyColumn: String { "_id" }

    /// SQLite's, with `MATCHES` through the store's `regexp` function.
    package var dialect: any RelationalDialect { SQLiteStoreRelationalDialect() }

    package func tableName(root rootName: String) -> String? { schema.tables[rootName]?.name }

    /// `_entity IN ('A', 'B')`, the names spelled out as the store's own queries spell them;
    /// nil for a table holding one entity.
    package func entityRestriction(alias: String, entityNames: [String], binder: inout RelationalBinder) -> String? {
        guard let first = entityNames.first, schema.entities[first]?.table.hasEntityColumn == true else { return nil }
        return "\(quotedIdentifier(alias)).\"_entity\" IN (\(entityNames.map(sqlLiteral).joined(separator: ", ")))"
    }

    package func column(property: String, entity: EntitySchema) -> String? {
        guard let mapped = schema.entities[entity.name], let position = entity.propertyIndex[property],
            let index = mapped.columnIndex[position]
        else { return nil }
        return mapped.table.columns[index].name
    }

    package func toManyLink(relationship name: String, entity: EntitySchema) -> RelationalToManyLink? {
        if let side = schema.joinSide(entity: entity.name, relationship: name) {
            return .joinTable(table: side.table.name, ownColumn: side.ownColumn, otherColumn: side.otherColumn)
        }
        return inverseColumnLink(relationship: name, entity: entity)
    }

    package func encoded(_ literal: PredicateLiteral, for attribute: AttributeDescription) -> RelationalValue? {
        guard case .value(let value, _, _)? = comparison(literal, .equalTo, for: attribute) else { return nil }
        return value
    }

    /// Every stored type but the opaque ones (transformable, object IDs), which SQL cannot
    /// compare. Decimals are compared by `ownComparison` (see `+Decimal`).
    package func comparesInSQL(_ attribute: AttributeDescription) -> Bool {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .boolean, .double, .float, .decimal, .date, .string, .uuid, .uri,
            .binaryData:
            true
        case .transformable, .objectID, .undefined: false
        }
    }

    /// The store orders its rows itself (`FetchCompiler.query(for:)`): the core's sort is
    /// not used for it.
    package func sortsInSQL(_ attribute: AttributeDescription) -> Bool { false }

    package func narrowsApproximately(_ attribute: AttributeDescription) -> Bool { false }

    /// A double's column with NaN (kept as the text `NaN`) read as NULL: unordered, as in
    /// memory.
    package func comparedValue(_ column: String, of attribute: AttributeDescription) -> String {
        switch attribute.type {
        case .double, .float: "(CASE WHEN typeof(\(column)) = 'text' THEN NULL ELSE \(column) END)"
        default: column
        }
    }

    /// `canonical(x)` for `[cd]`, `predicate_fold(x, options)` for `[c]` or `[d]`: the
    /// functions the store registers on every connection, folding as the evaluator folds.
    package func folded(_ sql: String, _ options: PredicateNode.Options) -> String? {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (false, false): sql
        case (true, true): "canonical(\(sql))"
        default: "predicate_fold(\(sql), \(options.rawValue))"
        }
    }

    package func comparison(_ literal: PredicateLiteral, _ op: PredicateNode.Operator, for attribute: AttributeDescription)
        -> RelationalComparand?
    {
        switch (attribute.type, literal) {
        case (.integer16, _), (.integer32, _), (.integer64, _), (.boolean, _), (.double, _), (.float, _):
            return numberComparison(literal, op, isDouble: attribute.type == .double || attribute.type == .float)
        case (.date, .date(let date)): return .value(.real(date.timeIntervalSince1970), op)
        case (.date, .string(let text)):
            // A date typed as text, as the evaluator reads it; text that is no date is
            // refused by the store's compiler, with the evaluator's reason.
            guard let date = try? PredicateEvaluator.typedDate(text) else { return nil }
            return .value(.real(date.timeIntervalSince1970), op)
        case (.uuid, .uuid(let uuid)): return .value(.text(uuid.uuidString), op)
        case (.uri, .url(let url)): return .value(.text(url.absoluteString), op)
        case (.binaryData, .data(let data)): return .value(.blob(data), op)
        default: return nil
        }
    }

    /// An integer, boolean or double column against a number: NaN holds for nothing; a
    /// double column against a Decimal through the double nearest it (when that double is
    /// not the decimal itself, no double equals it and an ordering moves to one side of it);
    /// an integer column against a Decimal as the integers around it
    /// (`RelationalComparand.integerColumn`); otherwise as REAL when either side is a
    /// double, else as INTEGER.
    private func numberComparison(_ literal: PredicateLiteral, _ op: PredicateNode.Operator, isDouble: Bool)
        -> RelationalComparand?
    {
        guard let number = Number(PredicateValue(literal)) else { return nil }
        if number.doubleValue.isNaN { return .constant(holds: false) }
        switch number {
        case .decimal(let decimal):
            guard isDouble else { return .integerColumn(op, comparedWith: decimal) }
            return .doubleColumn(op, comparedWith: decimal)
        case .double(let double): return .value(.real(double), op)
        case .integer(let integer): return isDouble ? .value(.real(number.doubleValue), op) : .value(.integer(integer), op)
        }
    }
}
