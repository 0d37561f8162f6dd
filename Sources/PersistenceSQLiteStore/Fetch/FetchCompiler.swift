import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
import PersistenceRelational
/// Turns a fetch request into the store's SQL pieces: the table, the entity restriction,
/// joins for key paths through to-one relationships, and the ORDER BY list.
package struct FetchCompiler {
    let schema: StoreSchema
    package let mapping: EntityMapping
    var joins: [String] = []
    private var joinAliases: [String: String] = [:]
    /// The alias of the entity's table in the SQL: its name, or a subquery's alias.
    package var rootAlias: String
    /// Prefixes join aliases so that a subquery's joins never clash with the outer query's.
    package var aliasPrefix = "j"
    /// Whether searches use the store's trigram indexes (else every word scans the stored
    /// canonical columns): false for a read-only store whose indexes are not current.
    package var usesSearchIndexes = true
    /// The top-level `AND` terms of the predicates compiled so far that the relational core
    /// did not answer, which the store's own `PredicateSQLCompiler` wrote (see
    /// `condition(for:)`); the store adds them up in `SQLiteStore.fetchTermsOutsideCore`.
    package internal(set) var termsOutsideCore = 0

    /// Prepares to compile requests for `entityName`.
    ///
    /// - Throws: `FetchError` for an unknown entity.
    package init(schema: StoreSchema, entityName: String) throws {
        guard let mapping = schema.entities[entityName] else {
            throw FetchError(entity: entityName, reason: "the model has no entity named '\(entityName)'")
        }
        self.schema = schema
        self.mapping = mapping
        self.rootAlias = mapping.table.name
    }

    /// The store query for a request, without its predicate.
    package mutating func query(for request: FetchRequest) throws -> StoreQuery {
        var query = StoreQuery(table: mapping.table)
        // A root entity's fetch with sub-entities reads the whole table; anything else is
        // restricted to the entities it covers.
        if !request.includesSubentities {
            query.entityNames = [mapping.schema.name]
        } else if !mapping.schema.ancestors.isEmpty {
            query.entityNames = mapping.schema.hierarchyNames
        }
        if let predicate = request.predicate {
            (query.condition, query.arguments) = try condition(for: predicate.expression)
        }
        var order: [String] = []
        if let text = request.searchText {
            let search = try search(text, keyPaths: request.searchKeyPaths)
            query.condition = query.condition.map { "(\($0)) AND (\(search.condition))" } ?? search.condition
            query.arguments += search.arguments
            if let rank = search.rank {
                order.append(rank)
                query.orderingArguments = search.rankArguments
                query.sortsComputedRank = true
            }
        }
        // Each sort key twice: as the column, which an index on it can serve, and as `+column`,
        // which none can (see `StoreQuery.sortedOrdering`).
        var sorted = order
        for key in request.sortDescriptors {
            let (sql, isDecimal) = try column(forKeyPath: key.keyPath)
            let term = (isDecimal ? " COLLATE DECIMAL" : "") + (key.ascending ? " ASC" : " DESC")
            order.append(sql + term)
            sorted.append("+" + sql + term)
        }
        let tieBreak = "\(sqlIdentifier(mapping.table.name)).\"_id\""
        query.ordering = (order + [tieBreak]).joined(separator: ", ")
        if !request.sortDescriptors.isEmpty { query.sortedOrdering = (sorted + [tieBreak]).joined(separator: ", ") }
        query.limit = request.fetchLimit
        query.offset = request.fetchOffset
        query.joins = joins
        return query
    }

    /// The SQL expression for a key path's column, adding LEFT JOINs for to-one steps, and
    /// whether it holds Decimal text.
    ///
    /// - Throws: `FetchError` for an unknown key, a to-many step, or a transient property.
    package mutating func column(forKeyPath keyPath: String) throws -> (sql: String, isDecimal: Bool) {
        let steps = keyPath.split(separator: ".").map(String.init)
        var current = mapping
        var alias = rootAlias
        for (index, step) in steps.enumerated() {
            guard let position = current.schema.propertyIndex[step] else {
                throw FetchError(entity: mapping.schema.name, reason: "\(current.schema.name) has no property named '\(QuotedText.excerpt(step))'")
            }
            let property = current.schema.properties[position]
            if property.isTransient {
                throw FetchError(
                    entity: mapping.schema.name,
                    reason: "\(step) is transient: it is not stored, so it cannot be fetched or sorted on")
            }
            let isLast = index == steps.count - 1
            switch property {
            case .attribute(let attribute):
                guard isLast else {
                    throw FetchError(entity: mapping.schema.name, reason: "'\(QuotedText.excerpt(keyPath))' continues past the attribute \(step)")
                }
                guard current.columnIndex[position] != nil else {
                    throw FetchError(entity: mapping.schema.name, reason: "\(step) is not stored")
                }
                return ("\(sqlIdentifier(alias)).\(sqlIdentifier(step))", attribute.type == .decimal)
            case .relationship(let relationship):
                guard !relationship.isToMany else {
                    throw FetchError(entity: mapping.schema.name, reason: "'\(QuotedText.excerpt(keyPath))' goes through the to-many relationship \(step)")
                }
                guard let destination = schema.entities[relationship.destinationEntityName] else {
                    throw FetchError(entity: mapping.schema.name, reason: "unknown destination of \(step)")
                }
                if isLast { return ("\(sqlIdentifier(alias)).\(sqlIdentifier(step))", false) }
                let path = steps[...index].joined(separator: ".")
                if let existing = joinAliases[path] {
                    alias = existing
                } else {
                    let newAlias = "\(aliasPrefix)\(joinAliases.count)_\(step)"
                    joins.append(
                        "LEFT JOIN \(sqlIdentifier(destination.table.name)) AS \(sqlIdentifier(newAlias)) "
                            + "ON \(sqlIdentifier(newAlias)).\"_id\" = \(sqlIdentifier(alias)).\(sqlIdentifier(step))")
                    joinAliases[path] = newAlias
                    alias = newAlias
                }
                current = destination
            }
        }
        throw FetchError(entity: mapping.schema.name, reason: "the key path is empty")
    }
}
