import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
/// The SQL of a fetch request's `searchText`: a condition and a rank to order by.
package struct SearchSQL {
    /// The condition objects must meet: every word in one of the searched attributes.
    package var condition: String
    /// The values bound to the condition's `?` parameters, in order.
    package var arguments: [SQLiteValue]
    /// The rank expression (0 best), for ORDER BY; nil when nothing can match.
    package var rank: String?
    /// The values bound to the rank's `?` parameters, in order.
    package var rankArguments: [SQLiteValue]
}

/// An attribute a search reads: reached from the fetched entity through zero or more to-one
/// relationships.
package struct SearchPath {
    /// One to-one step: the foreign-key column and the table that holds it.
    struct Step {
        /// The relationship's column.
        let column: String
        /// The table that holds the column.
        let sourceTable: String
    }

    /// The key path as given.
    package let keyPath: String
    /// The key path whose value, folded, is what the attribute will hold after the next
    /// save: for a `canonical:(x)` attribute, the path to `x`; else ``keyPath``. The
    /// in-memory search of unsaved objects reads it.
    package let unsavedKeyPath: String
    /// The to-one steps, outermost first.
    let steps: [Step]
    /// The search index of the attribute's table.
    let index: SearchIndexMapping
    /// The attribute's column in that index.
    let column: SearchIndexMapping.Column
}

extension FetchCompiler {
    /// Compiles a search. Each word of three or more characters becomes the set of rows it
    /// finds in the trigram index of some searched attribute (`SELECT rowid FROM _search_T
    /// WHERE … MATCH ?`, through the foreign keys of to-one steps, the attributes' sets
    /// joined with UNION); the words' sets are intersected (INTERSECT) and the fetched rows
    /// are those in the result. A word too short for trigrams is an `instr` test on the
    /// stored canonical columns of those rows. The rank is the `search_rank(phrase,
    /// columns…)` function over the same columns.
    ///
    /// When the store's indexes are not usable (``usesSearchIndexes`` is false), every
    /// word scans.
    ///
    /// - Throws: `FetchError` for a key path that is unknown, goes through a to-many or
    ///   ends at an attribute not indexed for search, or when the entity has nothing
    ///   indexed for search.
    package mutating func search(_ text: String, keyPaths: [String]) throws -> SearchSQL {
        let search = SearchText(text)
        let paths = try searchPaths(keyPaths)
        guard !search.words.isEmpty else {
            return SearchSQL(condition: "0", arguments: [], rank: nil, rankArguments: [])
        }
        var fields: [String] = []
        for path in paths {
            let (sql, _) = try column(forKeyPath: path.keyPath)
            fields.append(path.column.isCanonical ? sql : "canonical(\(sql))")
        }
        // Words long enough for trigrams: the rows each word finds (through any searched
        // attribute) are intersected inside SQLite, so that a rare word keeps a common one
        // from costing a row lookup per match. Shorter words scan the matching rows.
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        var words: [String] = []
        for word in search.words where !words.contains(word) { words.append(word) }
        guard words.count <= Self.maximumSearchWords else {
            throw FetchError(
                entity: mapping.schema.name,
                reason: "the search text has \(words.count) different words; at most \(Self.maximumSearchWords) can be searched")
        }
        // SQLite allows 500 terms in a compound SELECT: words past that scan instead.
        let indexed = usesSearchIndexes
            ? Array(words.filter(SearchText.isIndexable).prefix(max(1, 480 / paths.count))) : []
        if !indexed.isEmpty {
            let rows = indexRows(indexed.map(SearchText.ftsQuery), paths)
            arguments += rows.arguments
            conditions.append("\(sqlIdentifier(rootAlias)).\"_id\" IN (\(rows.sql))")
        }
        for word in words where !indexed.contains(word) {
            conditions.append("(" + fields.map { "coalesce(instr(\($0), ?), 0) > 0" }.joined(separator: " OR ") + ")")
            arguments += fields.map { _ in .text(word) }
        }
        return SearchSQL(
            condition: conditions.joined(separator: " AND "), arguments: arguments,
            rank: "search_rank(?, \(fields.joined(separator: ", ")))", rankArguments: [.text(search.phrase)])
    }

    /// The most different words a search text may have (SQLite limits the depth of an
    /// expression, and a search box never needs more).
    package static let maximumSearchWords = 256

    /// The searched attributes: the key paths given, or every attribute of the entity
    /// indexed for search.
    ///
    /// - Throws: `FetchError` as ``search(_:keyPaths:)``.
    package func searchPaths(_ keyPaths: [String]) throws -> [SearchPath] {
        let indexes = schema.searchIndexes
        let entity = mapping.schema.name
        var keyPaths = keyPaths
        if keyPaths.isEmpty {
            for property in mapping.schema.properties {
                if case .attribute(let a) = property, a.isIndexedBySpotlight, a.isStored { keyPaths.append(a.name) }
            }
            if keyPaths.isEmpty {
                throw FetchError(
                    entity: entity,
                    reason: "\(entity) has no attribute indexed for search (\"Index in Spotlight\"), so it cannot be searched")
            }
        }
        return try keyPaths.map { keyPath in
            let names = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            var current = mapping
            var steps: [SearchPath.Step] = []
            for (position, name) in names.enumerated() {
                guard let index = current.schema.propertyIndex[name] else {
                    throw FetchError(entity: entity, reason: "\(current.schema.name) has no property named '\(QuotedText.excerpt(name))' to search")
                }
                switch current.schema.properties[index] {
                case .relationship(let r):
                    guard position < names.count - 1 else {
                        throw FetchError(entity: entity, reason: "the search key path '\(QuotedText.excerpt(keyPath))' ends at the relationship \(name), not an attribute")
                    }
                    guard !r.isToMany, !r.isTransient, let destination = schema.entities[r.destinationEntityName] else {
                        throw FetchError(entity: entity, reason: "the search key path '\(QuotedText.excerpt(keyPath))' goes through \(name), which is not a stored to-one relationship")
                    }
                    steps.append(.init(column: name, sourceTable: current.table.name))
                    current = destination
                case .attribute(let a):
                    guard position == names.count - 1 else {
                        throw FetchError(entity: entity, reason: "the search key path '\(QuotedText.excerpt(keyPath))' continues past the attribute \(name)")
                    }
                    guard a.isIndexedBySpotlight, a.isStored, let index = indexes[current.table.name],
                        let column = index.column(named: name)
                    else {
                        throw FetchError(
                            entity: entity,
                            reason: "\(current.schema.name).\(name) is not indexed for search (\"Index in Spotlight\"), so it cannot be searched")
                    }
                    var unsavedKeyPath = keyPath
                    if let expression = a.derivationExpression,
                        case .canonical(let source) = try? Derivation(parsing: expression)
                    {
                        unsavedKeyPath = (names.dropLast() + [source]).joined(separator: ".")
                    }
                    return SearchPath(
                        keyPath: keyPath, unsavedKeyPath: unsavedKeyPath, steps: steps, index: index, column: column)
                }
            }
            throw FetchError(entity: entity, reason: "the search key path '\(QuotedText.excerpt(keyPath))' is empty")
        }
    }

    /// A compound `SELECT "id" …` of the primary keys of the rows that match every FTS5
    /// query of `queries` in some attribute of `paths`: per query the union over the
    /// attributes, and the intersection of those sets.
    func indexRows(_ queries: [String], _ paths: [SearchPath]) -> (sql: String, arguments: [SQLiteValue]) {
        var arguments: [SQLiteValue] = []
        let sets = queries.map { query in
            paths.map { path in
                arguments.append(.text(query))
                return indexLookup(path)
            }.joined(separator: " UNION ")
        }
        let sql = sets.count == 1 ? sets[0] : sets.map { "SELECT \"id\" FROM (\($0))" }.joined(separator: " INTERSECT ")
        return (sql, arguments)
    }

    /// `SELECT … AS "id"`: the primary keys of the fetched table's rows whose attribute
    /// matches `?` in its index, through the to-one steps.
    func indexLookup(_ path: SearchPath) -> String {
        let fts = sqlIdentifier(path.index.name)
        let match = "FROM \(fts) WHERE \(fts).\(sqlIdentifier(path.column.name)) MATCH ?"
        guard !path.steps.isEmpty else { return "SELECT rowid AS \"id\" " + match }
        var sql = "SELECT rowid " + match
        for (depth, step) in path.steps.enumerated().reversed() {
            let alias = sqlIdentifier("\(aliasPrefix)s\(depth)")
            sql = "SELECT \(alias).\"_id\"\(depth == 0 ? " AS \"id\"" : "") FROM \(sqlIdentifier(step.sourceTable)) AS \(alias) "
                + "WHERE \(alias).\(sqlIdentifier(step.column)) IN (\(sql))"
        }
        return sql
    }
}
