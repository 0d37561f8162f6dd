import Foundation
import PersistenceModel

/// How one store lays a model out in tables, and what its SQL dialect can answer exactly:
/// what `RelationalFetchCompiler` asks of a store to turn a fetch request into SQL.
///
/// A store supplies the names (a table per root entity, its key column, the column telling
/// a row's entity apart, a column per stored attribute and per to-one), the encoding of a
/// compared value as its columns keep it, and the dialect's folding of strings for `[c]`,
/// `[d]` and `[cd]`. Whatever the layout cannot answer exactly (it returns nil) is left to
/// the in-memory evaluator, for that term only.
package protocol RelationalLayout {
    /// The model laid out.
    var model: ManagedObjectModel { get }

    /// The table holding the rows of the hierarchy whose root is `rootName`.
    func tableName(root rootName: String) -> String?

    /// The column holding each row's key, in every table.
    var keyColumn: String { get }

    /// An SQL condition keeping only the rows of `entityNames` in the table under `alias`,
    /// or nil when the table holds rows of no other entity.
    func entityRestriction(alias: String, entityNames: [String]) -> String?

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
}

/// Where a to-many's destinations are linked to their source row.
package enum RelationalToManyLink: Sendable, Hashable {
    /// A column of the destination's table holding the source's key (the inverse to-one).
    case inverseColumn(String)
    /// A join table: the column holding the source's key, and the one holding the
    /// destination's.
    case joinTable(table: String, ownColumn: String, otherColumn: String)
}
