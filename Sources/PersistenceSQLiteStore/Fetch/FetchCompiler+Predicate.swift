import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceSQLite
import PersistenceStore

// A request's predicate as SQL: the relational core's compiler over the store's layout
// (`SQLiteStoreRelationalLayout`) first, the store's own `PredicateSQLCompiler` for the
// terms the core does not answer yet. Both answer in SQL: nothing is left to memory.

extension FetchCompiler {
    /// The SQL condition for `predicate` and the values it binds, in placeholder order.
    ///
    /// Each top-level `AND` term is compiled by the relational core when it answers it
    /// exactly; the others (decimal columns, an integer against a decimal, `MATCHES`, `IN`
    /// a string, `@sum` and the other collection operators, long lists and chains, and every
    /// term the store refuses) are compiled together by `PredicateSQLCompiler`, which also
    /// throws the store's error for a term no store can answer.
    ///
    /// - Throws: `FetchError` for an unknown or transient key, an unbound variable, a type
    ///   mismatch, or a form SQL does not support.
    package mutating func condition(for predicate: PredicateNode) throws -> (String?, [SQLiteValue]) {
        let layout = SQLiteStoreRelationalLayout(schema: schema)
        let core =
            Self.hasLongList(predicate)
            ? nil
            : RelationalFetchCompiler.compilePredicate(
                predicate, entityName: mapping.schema.name, alias: rootAlias, layout: layout)
        var conditions = core?.conditions ?? []
        var arguments = core?.bindings.map(SQLiteValue.init) ?? []
        joins += core?.joins ?? []
        let residual = core?.residual ?? [predicate]
        if !residual.isEmpty {
            termsOutsideCore += residual.count
            var compiler = PredicateSQLCompiler(fetch: self)
            conditions.append(try compiler.condition(for: residual.count == 1 ? residual[0] : .and(residual)))
            arguments += compiler.arguments
            self = compiler.fetch
        }
        guard !conditions.isEmpty else { return (nil, arguments) }
        return (conditions.count == 1 ? conditions[0] : PredicateSQLCompiler.balanced(conditions, "AND"), arguments)
    }

    /// Whether `node` holds an `AND`/`OR` of more terms, or an `IN` list of more values, than
    /// `PredicateSQLCompiler.longListThreshold`: the store's compiler spells those as a
    /// balanced tree and a bound JSON array (SQLite refuses an expression nested 1,000 deep),
    /// where the core writes a flat chain.
    static func hasLongList(_ node: PredicateNode) -> Bool {
        switch node {
        case .and(let children), .or(let children):
            return children.count > PredicateSQLCompiler.longListThreshold || children.contains(where: hasLongList)
        case .not(let child): return hasLongList(child)
        case .comparison(let comparison):
            if case .aggregate(let items) = comparison.right { return items.count > PredicateSQLCompiler.longListThreshold }
            return false
        case .truePredicate, .falsePredicate: return false
        }
    }
}

extension SQLiteValue {
    /// A value the relational core bound, as SQLite binds it.
    init(_ value: RelationalValue) {
        switch value {
        case .null: self = .null
        case .integer(let i): self = .integer(i)
        case .real(let d): self = .real(d)
        case .text(let t): self = .text(t)
        case .blob(let b): self = .blob(b)
        }
    }
}
