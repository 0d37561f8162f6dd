import Foundation
import PersistenceModel

/// How one store lays a model out in tables, and what its SQL dialect can answer exactly:
/// what `RelationalFetchCompiler` asks of a store to turn a fetch request into SQL.
///
/// A store supplies the names (a table per root entity, its key column, the column telling
/// a row's entity apart, a column per stored attribute and per to-one, the links of its
/// to-manys), the encoding of a compared value as its columns keep it, the folding of
/// strings for `[c]`, `[d]` and `[cd]`, and the `RelationalDialect` its SQL is written in
/// (SQLite's unless it says otherwise). Whatever the layout cannot answer exactly (it returns nil) is left to
/// the in-memory evaluator, for that term only.
package protocol RelationalLayout {
    /// The model laid out.
    var model: ManagedObjectModel { get }

    /// The table holding the rows of the hierarchy whose root is `rootName`.
    func tableName(root rootName: String) -> String?

    /// The column holding each row's key, in every table.
    var keyColumn: String { get }

    /// An SQL condition keeping only the rows of `entityNames` in the table under `alias`,
    /// or nil when the table holds rows of no other entity; any value it compares is bound
    /// through `binder`.
    func entityRestriction(alias: String, entityNames: [String], binder: inout RelationalBinder) -> String?

    /// The column of a stored attribute or of a to-one's key, of `entity`'s table.
    func column(property: String, entity: EntitySchema) -> String?

    /// How the destinations of `entity`'s to-many `relationship` are found from a source
    /// row's key, or nil when the layout keeps no link SQL can follow.
    func toManyLink(relationship: String, entity: EntitySchema) -> RelationalToManyLink?

    /// The value a column of `attribute` keeps for `literal`, when comparing the column with
    /// it in SQL gives the evaluator's answer (order included, for the ordering operators);
    /// nil otherwise.
    func encoded(_ literal: PredicateLiteral, for attribute: AttributeDescription) -> RelationalValue?

    /// Whether SQL's order of `attribute`'s column (NULL first, then as stored) is
    /// `SortValueOrder`'s order of its values.
    func sortsInSQL(_ attribute: AttributeDescription) -> Bool

    /// Whether SQL's `=` and ordering of `attribute`'s column are the evaluator's, given
    /// values encoded by `encoded(_:for:)`.
    func comparesInSQL(_ attribute: AttributeDescription) -> Bool

    /// Whether `attribute`'s column, which SQL cannot compare exactly, keeps numbers SQL can
    /// compare approximately (INTEGER or REAL where exact, other values otherwise): a
    /// comparison with a number is then narrowed in SQL to the rows that could pass it,
    /// and decided exactly in memory on those.
    func narrowsApproximately(_ attribute: AttributeDescription) -> Bool

    /// The SQL reading a column of `attribute` for comparisons and sorts: the column, or an
    /// expression over it (say, NaN kept as text read as NULL, so that it is unordered).
    func comparedValue(_ column: String, of attribute: AttributeDescription) -> String

    /// The SQL folding a string expression as `[c]`, `[d]` or `[cd]` fold in memory
    /// (`PredicateEvaluator.fold`), or nil when the dialect has no such function.
    func folded(_ sql: String, _ options: PredicateNode.Options) -> String?

    /// SQL true when the string expression `sql`, folded as `[cd]` folds
    /// (`CanonicalText.fold`), contains `needle` (a placeholder bound to text folded so
    /// already), and false otherwise, NULL included; or nil, by default, to spell it as
    /// `instr` over `folded(_:_:)`. A layout with a function that matches in place (no folded
    /// copy of each row's text made) answers a search or a `CONTAINS[cd]` faster with it.
    func foldedContains(_ sql: String, _ needle: String) -> String?

    /// SQL computing a search's rank of a row, 0 (best) to 3, exactly as `SearchText.rank`
    /// ranks objects in memory: `phrase` is a placeholder bound to the search's folded
    /// phrase (`SearchText.phrase`), `fields` the searched string expressions, not folded,
    /// in the request's order. Nil, by default, when the layout has no such function: a
    /// search is then ranked, sorted and windowed in memory. With it, a search is ordered by
    /// it (then the request's sorts) and windowed in SQL, so that only the rows listed are
    /// read.
    func searchRank(_ phrase: String, fields: [String]) -> String?

    /// The SQL reading the column `sql` of `attribute` (of `entity`'s row under `alias`)
    /// folded as `[c]`, `[d]` or `[cd]` fold in memory, or nil when the layout cannot. By
    /// default `folded(_:_:)`; a layout may read a stored folded copy of the attribute
    /// instead (a `canonical:(x)` or `lowercase:(x)` attribute of the same row).
    func folded(
        _ sql: String, _ options: PredicateNode.Options, of attribute: AttributeDescription, in entity: EntitySchema,
        alias: String
    ) -> String?

    /// The text a string column keeps for `text` (say, with an escape the layout writes);
    /// by default `text` itself.
    func storedText(_ text: String) -> String

    /// How `attribute`'s column compares with `literal` (not nil, not a string for a string
    /// attribute) under `op` (`==`, `!=` or an ordering), or nil when SQL cannot answer as
    /// the evaluator does. By default: a NaN never holds against a number, else `literal`
    /// as `encoded(_:for:)` encodes it.
    func comparison(_ literal: PredicateLiteral, _ op: PredicateNode.Operator, for attribute: AttributeDescription)
        -> RelationalComparand?

    /// The dialect the layout's SQL is written in; by default SQLite's.
    var dialect: any RelationalDialect { get }

    /// The layout's own SQL for `column` (of `attribute`) compared with `literal` (not nil)
    /// under `op` (`==`, `!=` or an ordering), for an encoding no bound value and operator
    /// can compare alone (say, decimal text under a collation, with a bound SQL can check
    /// first); nil for the core's comparison (`comparison(_:_:for:)`). Like every compiled
    /// comparison it is true or false where the evaluator's is, and false, never NULL,
    /// for a NULL operand when `negated` (under a `NOT`). By default nil.
    func ownComparison(
        _ column: String, of attribute: AttributeDescription, _ op: PredicateNode.Operator, _ literal: PredicateLiteral,
        negated: Bool, binder: inout RelationalBinder
    ) -> String?
}

extension RelationalLayout {
    /// The link of `entity`'s to-many `relationship` kept in its destination's table: the
    /// column of its inverse to-one, or nil when it has none (a layout's `toManyLink` asks this
    /// for a to-many it keeps no join table for).
    package func inverseColumnLink(relationship name: String, entity: EntitySchema) -> RelationalToManyLink? {
        guard let relationship = entity.relationship(named: name), relationship.isToMany,
            let inverse = relationship.inverseName,
            let destination = model.schemas[relationship.destinationEntityName],
            destination.relationship(named: inverse)?.isToMany == false,
            let column = column(property: inverse, entity: destination)
        else { return nil }
        return .inverseColumn(column)
    }

    package func folded(
        _ sql: String, _ options: PredicateNode.Options, of attribute: AttributeDescription, in entity: EntitySchema,
        alias: String
    ) -> String? {
        folded(sql, options)
    }

    package func foldedContains(_ sql: String, _ needle: String) -> String? { nil }

    package func searchRank(_ phrase: String, fields: [String]) -> String? { nil }

    package func storedText(_ text: String) -> String { text }

    package func comparison(_ literal: PredicateLiteral, _ op: PredicateNode.Operator, for attribute: AttributeDescription)
        -> RelationalComparand?
    {
        // NaN is unordered: equal to nothing, unequal to everything, nil included.
        if case .double(let d) = literal, d.isNaN, attribute.type.isNumeric { return .constant(holds: false) }
        return encoded(literal, for: attribute).map { .value($0, op) }
    }

    package var dialect: any RelationalDialect { SQLiteRelationalDialect() }

    package func ownComparison(
        _ column: String, of attribute: AttributeDescription, _ op: PredicateNode.Operator, _ literal: PredicateLiteral,
        negated: Bool, binder: inout RelationalBinder
    ) -> String? {
        nil
    }
}

/// What a column is compared with, as a layout encodes a predicate's constant.
package enum RelationalComparand: Sendable, Hashable {
    /// The value bound (with `cast` appended to its placeholder, when given, such as
    /// `::numeric`), compared under the operator given (the predicate's, or an equivalent
    /// one for the encoded value: `i < 2.5` as `i <= 2`).
    case value(RelationalValue, PredicateNode.Operator, cast: String? = nil)
    /// The same answer for every set value: whether `==` and the orderings hold for it
    /// (`!=` holding for the opposite); a nil value makes `==` and the orderings false.
    case constant(holds: Bool)
}

/// Where a to-many's destinations are linked to their source row.
package enum RelationalToManyLink: Sendable, Hashable {
    /// A column of the destination's table holding the source's key (the inverse to-one).
    case inverseColumn(String)
    /// A join table: the column holding the source's key, and the one holding the
    /// destination's.
    case joinTable(table: String, ownColumn: String, otherColumn: String)
}
