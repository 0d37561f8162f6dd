#if PostgreSQL
import PersistenceModel
import PersistenceStore

/// Checks that every key path of a request names stored properties, so that a request that
/// cannot run throws `FetchError` before any row is read (as the SQLite store's compiler
/// refuses it), rather than part way through evaluating rows.
struct PGKeyPathChecker {
    let schema: PGSchema
    let entity: EntitySchema

    func check(_ node: PredicateNode) throws {
        switch node {
        case .truePredicate, .falsePredicate: return
        case .and(let children), .or(let children): for child in children { try check(child) }
        case .not(let child): try check(child)
        case .comparison(let comparison):
            try check(comparison.left)
            try check(comparison.right)
        }
    }

    private func check(_ operand: PredicateNode.Operand) throws {
        switch operand {
        case .keyPath(let components): try check(components)
        case .aggregate(let items): for item in items { try check(item) }
        case .collectionFunction(_, let collection, let key):
            let destination = try check(collection)
            if let destination, !key.isEmpty { try check(key, from: destination) }
        case .constant, .evaluatedObject, .variable: return
        }
    }

    /// Checks a key path from the fetched entity; returns the entity it ends at when it ends
    /// at a relationship.
    @discardableResult
    func check(_ components: [String]) throws -> EntitySchema? {
        try check(components, from: entity)
    }

    @discardableResult
    private func check(_ components: [String], from start: EntitySchema) throws -> EntitySchema? {
        var current: EntitySchema? = start
        var components = components[...]
        if components.first == "SELF" { components = components.dropFirst() }
        for name in components {
            // Past an attribute: a value's own key (`title.length`), which the evaluator reads.
            guard let schema = current else { return nil }
            guard let position = schema.propertyIndex[name] else {
                throw FetchError(entity: entity.name, reason: "\(schema.name) has no property named '\(QuotedText.excerpt(name))'")
            }
            let property = schema.properties[position]
            if property.isTransient {
                throw FetchError(
                    entity: entity.name,
                    reason: "\(schema.name).\(name) is transient: it is not stored, so a fetch cannot compare or sort by it")
            }
            switch property {
            case .attribute: current = nil
            case .relationship(let r):
                guard let destination = self.schema.entities[r.destinationEntityName]?.schema else {
                    throw FetchError(entity: entity.name, reason: "\(schema.name).\(name) leads to no entity of the model")
                }
                current = destination
            }
        }
        return current
    }
}

/// An attribute a search reads: reached from the fetched entity through zero or more
/// stored to-one relationships, and indexed for search.
struct PGSearchPath {
    /// The key path as given.
    let keyPath: String
    /// The path to read from an unsaved object: for a `canonical:(x)` attribute, the path to `x`.
    let unsavedKeyPath: String
    /// The to-one steps (table holding the column, the column), outermost first.
    let steps: [(table: String, column: String)]
    /// The attribute's table and column.
    let table: String
    let column: String
    /// Whether the column holds canonical text already (a `canonical:(x)` attribute), which
    /// the server can then search with `LIKE` and its trigram index.
    let isCanonical: Bool

    /// The searched attributes: the key paths given, or every attribute of the entity
    /// indexed for search.
    ///
    /// - Throws: `FetchError` for a key path that is unknown, goes through a to-many, or ends
    ///   at an attribute not indexed for search, or when nothing of the entity is.
    static func paths(_ keyPaths: [String], from entity: PGSchema.Entity, in schema: PGSchema) throws -> [PGSearchPath] {
        let name = entity.schema.name
        var keyPaths = keyPaths
        if keyPaths.isEmpty {
            for property in entity.schema.properties {
                if case .attribute(let a) = property, a.isIndexedBySpotlight, a.isStored { keyPaths.append(a.name) }
            }
            if keyPaths.isEmpty {
                throw FetchError(
                    entity: name, reason: "\(name) has no attribute indexed for search (\"Index in Spotlight\"), so it cannot be searched")
            }
        }
        return try keyPaths.map { keyPath in
            let names = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            var current = entity
            var steps: [(String, String)] = []
            for (position, component) in names.enumerated() {
                guard let index = current.schema.propertyIndex[component] else {
                    throw FetchError(
                        entity: name, reason: "\(current.schema.name) has no property named '\(QuotedText.excerpt(component))' to search")
                }
                switch current.schema.properties[index] {
                case .relationship(let r):
                    guard position < names.count - 1, !r.isToMany, !r.isTransient,
                        let destination = schema.entities[r.destinationEntityName]
                    else {
                        throw FetchError(
                            entity: name,
                            reason: "the search key path '\(QuotedText.excerpt(keyPath))' goes through \(component), which is not a stored to-one relationship")
                    }
                    steps.append((current.table.name, component))
                    current = destination
                case .attribute(let a):
                    guard position == names.count - 1, a.isIndexedBySpotlight, a.isStored, a.type == .string else {
                        throw FetchError(
                            entity: name,
                            reason: "\(current.schema.name).\(component) is not indexed for search (\"Index in Spotlight\"), so it cannot be searched")
                    }
                    var unsaved = keyPath
                    var isCanonical = false
                    if let expression = a.derivationExpression, case .canonical(let source) = try? Derivation(parsing: expression) {
                        unsaved = (names.dropLast() + [source]).joined(separator: ".")
                        isCanonical = true
                    }
                    return PGSearchPath(
                        keyPath: keyPath, unsavedKeyPath: unsaved, steps: steps, table: current.table.name, column: component,
                        isCanonical: isCanonical)
                }
            }
            throw FetchError(entity: name, reason: "the search key path '\(QuotedText.excerpt(keyPath))' is empty")
        }
    }

    /// The attribute's canonical text for `object` (empty for nil).
    func canonicalValue(of object: PGRowObject) throws -> String {
        let value = try PredicateEvaluator(.alwaysTrue).walk(.object(object), keyPath.split(separator: ".").map(String.init))
        guard case .string(let text) = value else { return "" }
        return isCanonical ? text : CanonicalText.fold(text)
    }

    /// The conditions that keep only rows which may match: per word, some canonical column
    /// holding it (`LIKE '%word%'`, answered by the trigram index). A word is left to the
    /// exact match in memory when some searched column is not canonical, or when it holds
    /// U+0000 or U+0001 (stored escaped, see `PGRowCodec`).
    static func prefilter(words: [String], paths: [PGSearchPath], parameters: inout [PGValue]) -> [String] {
        guard paths.allSatisfy(\.isCanonical) else { return [] }
        var conditions: [String] = []
        var seen: Set<String> = []
        for word in words where seen.insert(word).inserted {
            guard !word.unicodeScalars.contains(where: { $0.value <= 1 }) else { continue }
            parameters.append(.text("%" + escapeLike(word) + "%"))
            let mark = "$\(parameters.count)"
            let alternatives = paths.map { path -> String in
                var sql = "SELECT \"_id\" FROM \(pgIdentifier(path.table)) WHERE \(pgIdentifier(path.column)) LIKE \(mark)"
                guard !path.steps.isEmpty else { return "\"t\".\(pgIdentifier(path.column)) LIKE \(mark)" }
                for step in path.steps.dropFirst().reversed() {
                    sql = "SELECT \"_id\" FROM \(pgIdentifier(step.table)) WHERE \(pgIdentifier(step.column)) IN (\(sql))"
                }
                return "\"t\".\(pgIdentifier(path.steps[0].column)) IN (\(sql))"
            }
            conditions.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        return conditions
    }

    /// `text` as a LIKE pattern matching itself: `\`, `%` and `_` escaped with `\`.
    static func escapeLike(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "\\" || character == "%" || character == "_" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
#endif
