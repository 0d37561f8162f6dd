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
    /// exactly; the others (`IN` a string, `@sum` and the other collection operators, a list
    /// or chain binding more values than SQLite allows, and every term the store refuses) are
    /// compiled together by `PredicateSQLCompiler`, which also throws the store's error for a
    /// term no store can answer.
    ///
    /// - Throws: `FetchError` for an unknown or transient key, an unbound variable, a type
    ///   mismatch, or a form SQL does not support.
    package mutating func condition(for predicate: PredicateNode) throws -> (String?, [SQLiteValue]) {
        let layout = SQLiteStoreRelationalLayout(schema: schema)
        let core = RelationalFetchCompiler.compilePredicate(
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
        return (conditions.count == 1 ? conditions[0] : SQLChain.joined(conditions, by: "AND"), arguments)
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
