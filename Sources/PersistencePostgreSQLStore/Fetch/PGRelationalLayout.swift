#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceStore

/// The PostgreSQL store's tables (`PGSchema`) and encodings as the relational core compiles
/// fetches over them: a table per root entity keyed by `_id`, sub-entities told apart by the
/// `_entity` name, a column per stored attribute and to-one named after it, join tables
/// `<Entity>_<relationship>`, and the values as `PGRowCodec` writes them.
///
/// What it compares exactly, in step with `Number.compare` and the evaluator: integers (and
/// booleans, as 0 and 1) against doubles without a rounding cast (a fractional bound moves
/// to its floor, a bound past the Int64 range holds for every value or none); doubles with
/// NaN unordered (PostgreSQL orders it above every number); decimals as `numeric`, exactly,
/// a Double meaning its shortest round-trip decimal; dates as seconds since 1970, ISO 8601
/// date text included; strings and URLs by code point (`COLLATE "C"`) with U+0000 and U+0001
/// escaped as the codec escapes them; UUIDs and data bytewise. `[c]` and `[cd]` read a
/// stored `lowercase:(x)` or `canonical:(x)` copy of the attribute, counted only when `x` is
/// set. Transformable values are left to memory.
struct PGRelationalLayout: RelationalLayout {
    let schema: PGSchema
    let model: ManagedObjectModel

    var keyColumn: String { "_id" }

    var dialect: any RelationalDialect { PGRelationalDialect() }

    func tableName(root rootName: String) -> String? { schema.tables[rootName]?.name }

    func entityRestriction(alias: String, entityNames: [String], binder: inout RelationalBinder) -> String? {
        guard let first = entityNames.first, schema.entities[first]?.table.hasEntityColumn == true else { return nil }
        let column = "\(quotedIdentifier(alias)).\"_entity\""
        if entityNames.count == 1 { return "\(column) = \(binder.bind(.text(first)))" }
        return "\(column) = ANY(\(binder.bind(.text(PGRelationalDialect.arrayLiteral(entityNames))))::text[])"
    }

    func column(property: String, entity: EntitySchema) -> String? {
        guard let mapped = schema.entities[entity.name], let position = entity.propertyIndex[property],
            let index = mapped.columnIndex[position]
        else { return nil }
        return mapped.table.columns[index].name
    }

    func toManyLink(relationship name: String, entity: EntitySchema) -> RelationalToManyLink? {
        if let side = schema.joinSide(entity: entity.name, relationship: name) {
            return .joinTable(table: side.table.name, ownColumn: side.ownColumn, otherColumn: side.otherColumn)
        }
        return inverseColumnLink(relationship: name, entity: entity)
    }

    func encoded(_ literal: PredicateLiteral, for attribute: AttributeDescription) -> RelationalValue? {
        guard case .value(let value, _, _)? = comparison(literal, .equalTo, for: attribute) else { return nil }
        return value
    }

    func comparesInSQL(_ attribute: AttributeDescription) -> Bool {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .boolean, .double, .float, .decimal, .date, .string, .uuid, .uri, .binaryData:
            true
        case .transformable, .objectID, .undefined: false
        }
    }

    /// Nil first ascending (`NULLS FIRST`, see the dialect); NaN after every number, as
    /// PostgreSQL orders it; strings and URLs by code point, which the escape keeps; UUIDs
    /// by their bytes; data bytewise, a shorter prefix first.
    func sortsInSQL(_ attribute: AttributeDescription) -> Bool { comparesInSQL(attribute) }

    func narrowsApproximately(_ attribute: AttributeDescription) -> Bool { false }

    func comparedValue(_ column: String, of attribute: AttributeDescription) -> String {
        switch attribute.type {
        case .boolean: "(\(column))::int"
        // NaN read as NULL: unordered, as in memory.
        case .double, .float: "NULLIF(\(column), 'NaN'::float8)"
        case .decimal: "NULLIF(\(column), 'NaN'::numeric)"
        case .string, .uri: "\(column) COLLATE \"C\""
        default: column
        }
    }

    /// PostgreSQL has no function folding as the evaluator folds: only stored copies.
    func folded(_ sql: String, _ options: PredicateNode.Options) -> String? { nil }

    func folded(
        _ sql: String, _ options: PredicateNode.Options, of attribute: AttributeDescription, in entity: EntitySchema,
        alias: String
    ) -> String? {
        let wanted: (String) -> Derivation
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (true, true): wanted = Derivation.canonical
        case (true, false): wanted = Derivation.lowercase
        default: return nil
        }
        for case .attribute(let copy) in entity.properties
        where copy.isStored && !copy.isTransient && copy.type == .string {
            guard let expression = copy.derivationExpression, let derivation = try? Derivation(parsing: expression),
                derivation == wanted(attribute.name), let name = column(property: copy.name, entity: entity)
            else { continue }
            return "(CASE WHEN \(sql) IS NOT NULL THEN \(quotedIdentifier(alias)).\(quotedIdentifier(name)) END)"
        }
        return nil
    }

    func storedText(_ text: String) -> String { PGRowCodec.escape(text) }

    func comparison(_ literal: PredicateLiteral, _ op: PredicateNode.Operator, for attribute: AttributeDescription)
        -> RelationalComparand?
    {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .boolean: return integerComparison(literal, op)
        case .double, .float: return doubleComparison(literal, op)
        case .decimal: return decimalComparison(literal, op)
        case .date:
            let date: Date
            switch literal {
            case .date(let d): date = d
            case .string(let text):
                do { date = try PredicateEvaluator.typedDate(text) } catch { return nil }
            default: return nil
            }
            guard !date.timeIntervalSince1970.isNaN else { return nil }
            return .value(.real(date.timeIntervalSince1970), op)
        case .uuid:
            guard case .uuid(let uuid) = literal else { return nil }
            return .value(.text(uuid.uuidString.lowercased()), op, cast: "::uuid")
        case .uri:
            guard case .url(let url) = literal else { return nil }
            return .value(.text(PGRowCodec.escape(url.absoluteString)), op)
        case .binaryData:
            guard case .data(let data) = literal else { return nil }
            return .value(.blob(data), op)
        case .string, .transformable, .objectID, .undefined: return nil
        }
    }

    // MARK: - Numbers

    /// An integer (or boolean, as 0 and 1) column against a number: a decimal as `numeric`;
    /// a Double exactly, never through a rounding cast.
    private func integerComparison(_ literal: PredicateLiteral, _ op: PredicateNode.Operator) -> RelationalComparand? {
        switch literal {
        case .integer(let i): return .value(.integer(i), op)
        case .bool(let b): return .value(.integer(b ? 1 : 0), op)
        case .decimal(let d):
            if d.isNaN { return .constant(holds: false) }
            return .value(.text(DecimalText.format(d)), op, cast: "::numeric")
        case .double(let d):
            if d.isNaN { return .constant(holds: false) }
            // Past the Int64 range the answer is the same for every set value.
            if d >= 9_223_372_036_854_775_808.0 || d < -9_223_372_036_854_775_808.0 {
                let above = d > 0
                switch op {
                case .lessThan, .lessThanOrEqualTo: return .constant(holds: above)
                case .greaterThan, .greaterThanOrEqualTo: return .constant(holds: !above)
                default: return .constant(holds: false)
                }
            }
            // A whole Double compares as that integer; a fractional one is never equal and
            // orders as its floor (`i < 2.5` is `i <= 2`, `i > 2.5` is `i > 2`).
            let floor = d.rounded(.down)
            let whole = Int64(floor)
            if floor == d { return .value(.integer(whole), op) }
            switch op {
            case .equalTo, .notEqualTo: return .constant(holds: false)
            case .lessThan, .lessThanOrEqualTo: return .value(.integer(whole), .lessThanOrEqualTo)
            default: return .value(.integer(whole), .greaterThan)
            }
        default: return nil
        }
    }

    /// A Double column against a number: an integer exactly only within ±2⁵³; a decimal
    /// through the Double nearest it, the ordering moved to one side when no Double equals it.
    private func doubleComparison(_ literal: PredicateLiteral, _ op: PredicateNode.Operator) -> RelationalComparand? {
        switch literal {
        case .double(let d): return d.isNaN ? .constant(holds: false) : .value(.real(d), op)
        case .integer(let i):
            guard i.magnitude <= 1 << 53 else { return nil }
            return .value(.real(Double(i)), op)
        case .bool(let b): return .value(.real(b ? 1 : 0), op)
        case .decimal(let decimal): return .doubleColumn(op, comparedWith: decimal)
        default: return nil
        }
    }

    /// A Decimal column (`numeric`, exact) against a number; a Double means its shortest
    /// round-trip decimal, as in memory.
    private func decimalComparison(_ literal: PredicateLiteral, _ op: PredicateNode.Operator) -> RelationalComparand? {
        let text: String
        switch literal {
        case .decimal(let d):
            if d.isNaN { return .constant(holds: false) }
            text = DecimalText.format(d)
        case .integer(let i): text = String(i)
        case .bool(let b): text = b ? "1" : "0"
        case .double(let d):
            if d.isNaN { return .constant(holds: false) }
            guard let plain = DecimalText.plainText(of: d) else {
                // ±infinity: beyond every Decimal.
                switch op {
                case .lessThan, .lessThanOrEqualTo: return .constant(holds: d > 0)
                case .greaterThan, .greaterThanOrEqualTo: return .constant(holds: d < 0)
                default: return .constant(holds: false)
                }
            }
            text = plain
        default: return nil
        }
        return .value(.text(text), op, cast: "::numeric")
    }
}

extension PGValue {
    /// The PostgreSQL parameter of a value the relational core bound.
    init(_ value: RelationalValue) {
        switch value {
        case .null: self = .null
        case .integer(let v): self = .integer(v)
        case .real(let v): self = .double(v)
        case .text(let v): self = .text(v)
        case .blob(let v): self = .bytes(v)
        }
    }
}
#endif
