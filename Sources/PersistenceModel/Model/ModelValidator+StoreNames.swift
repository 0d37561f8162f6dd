/// The names the SQLite store gives its tables, indexes and columns, checked against the
/// model's own names.
///
/// The store names its objects after the model (see `StoreSchema`): a table per root entity,
/// `<Entity>_<relationship>` join tables, `<Entity>_<property>_index` and
/// `<Entity>_unique_<keys>` indexes, and columns named after properties beside its own
/// `_id` and `_entity`. Its own tables all begin with `_` (`_metadata`, `_primarykey`,
/// `_tombstone`, `_search_<Entity>` and its `_content` view, `_join_…`), and SQLite keeps
/// `sqlite_…` for itself. SQLite compares identifiers without regard to ASCII case, so
/// `Book` and `book` are one table: every check here folds case the same way.
///
/// A careful `sqlite3` user would not expect a store to refuse at creation (or worse, to
/// open a table it did not make) because of a name the model was allowed to have, so the
/// model is refused up front, naming the entity or property.
extension ModelValidator {
    /// Column names the store keeps for itself in every entity table: the primary key, the
    /// entity of each row, and SQLite's own names for the row ID (a column so named would
    /// hide the row ID the store and its search index read).
    package static let reservedColumnNames: Set<String> = ["_id", "_entity", "_opt", "rowid", "oid", "_rowid_"]

    /// Reports model names that would collide with a name the store uses.
    mutating func checkStoreNames() {
        var seenEntities: Set<String> = []
        let unique = entities.filter { seenEntities.insert($0.name).inserted }
        checkEntityNames(unique)
        checkColumnNames(unique)
        checkGeneratedNames(unique)
    }

    /// SQLite's folding of identifiers: ASCII letters only.
    package static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private mutating func checkEntityNames(_ entities: [EntityDescription]) {
        var byFolded: [String: [String]] = [:]
        for entity in entities where !entity.name.isEmpty {
            let name = entity.name
            if name.hasPrefix("_") {
                error(
                    name, nil,
                    "is a name the store reserves: tables whose names begin with '_' are its own "
                        + "(_metadata, _primarykey, _tombstone, _search_…, _join_…); choose another name")
            } else if Self.folded(name).hasPrefix("sqlite_") {
                error(name, nil, "is a name SQLite reserves for its own tables (sqlite_…); choose another name")
            }
            byFolded[Self.folded(name), default: []].append(name)
        }
        for (_, names) in byFolded.sorted(by: { $0.key < $1.key }) where names.count > 1 {
            error(
                nil, nil,
                "entities \(names.map { "'\($0)'" }.joined(separator: " and ")) differ only in case; "
                    + "SQLite table names ignore case, so they would be one table")
        }
    }

    /// Property names that are the store's own columns, and properties of one table (a root
    /// entity and its sub-entities) whose names differ only in case.
    private mutating func checkColumnNames(_ entities: [EntityDescription]) {
        let roots = rootNames(of: entities)
        var columns: [String: [String: [String]]] = [:]  // root → folded → names as spelled
        for entity in entities {
            let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
            for name in names where Self.reservedColumnNames.contains(Self.folded(name)) {
                error(
                    entity.name, name,
                    "is a column name the store reserves (\(Self.reservedColumnNames.sorted().joined(separator: ", "))); "
                        + "choose another name")
            }
            for attribute in entity.attributes
            where attribute.isIndexedBySpotlight && Self.folded(attribute.name) == "rank" {
                error(
                    entity.name, attribute.name,
                    "is indexed for search, and SQLite's search tables reserve the column name 'rank'; "
                        + "choose another name")
            }
            let root = roots[entity.name] ?? entity.name
            for name in names {
                var spellings = columns[root, default: [:]][Self.folded(name), default: []]
                if !spellings.contains(name) { spellings.append(name) }
                columns[root, default: [:]][Self.folded(name)] = spellings
            }
        }
        for (root, byFolded) in columns.sorted(by: { $0.key < $1.key }) {
            for (_, names) in byFolded.sorted(by: { $0.key < $1.key }) where names.count > 1 {
                error(
                    root, nil,
                    "has properties \(names.map { "'\($0)'" }.joined(separator: " and ")) in one table "
                        + "(its own or its sub-entities'), which differ only in case; SQLite column names "
                        + "ignore case")
            }
        }
    }

    /// Indexes and join tables: two made under one name, or an entity's table under the name
    /// of an index. (A join table named like an entity is renamed `_join_…` by the store.)
    private mutating func checkGeneratedNames(_ entities: [EntityDescription]) {
        var made: [String: [(name: String, what: String)]] = [:]
        func add(_ name: String, _ what: String) {
            let key = Self.folded(name)
            if made[key]?.contains(where: { $0.what == what }) == true { return }
            made[key, default: []].append((name, what))
        }
        for entity in entities where !entity.name.isEmpty {
            let e = entity.name
            for attribute in entity.attributes where attribute.isIndexed && attribute.isStored {
                add("\(e)_\(attribute.name)_index", "the index of \(e).\(attribute.name)")
            }
            for relationship in entity.relationships where !relationship.isTransient {
                if relationship.isToMany {
                    let join = "\(e)_\(relationship.name)"
                    let what = "the join table of \(e).\(relationship.name)"
                    add(join, what)
                    add(join + "_source_destination", "an index of " + what)
                    add(join + "_destination_source", "an index of " + what)
                } else {
                    add("\(e)_\(relationship.name)_index", "the index of \(e).\(relationship.name)")
                }
            }
            for index in entity.fetchIndexes {
                add("\(e)_\(index.name)", "the fetch index \(e).\(index.name)")
            }
            for keys in entity.compoundIndexes where !keys.isEmpty {
                add("\(e)_\(keys.joined(separator: "_"))_index", "the compound index (\(keys.joined(separator: ", "))) of \(e)")
            }
            for keys in entity.uniquenessConstraints where !keys.isEmpty {
                add("\(e)_unique_\(keys.joined(separator: "_"))", "the uniqueness constraint (\(keys.joined(separator: ", "))) of \(e)")
            }
        }
        var reported: Set<String> = []
        for entity in entities {
            guard let uses = made[Self.folded(entity.name)],
                let index = uses.first(where: { !$0.what.hasPrefix("the join table") })
            else { continue }
            reported.insert(Self.folded(entity.name))
            error(
                entity.name, nil,
                "is the name the store gives \(index.what) ('\(index.name)'); choose another name")
        }
        for (key, uses) in made.sorted(by: { $0.key < $1.key }) where uses.count > 1 && !reported.contains(key) {
            let whats = Set(uses.map(\.what)).sorted()
            // Two join tables' indexes collide exactly when the tables do: said once.
            guard whats.count > 1, !whats.allSatisfy({ $0.hasPrefix("an index of the join table") }) else { continue }
            error(
                nil, nil,
                "the store would give \(whats.joined(separator: " and ")) one name, '\(uses[0].name)' "
                    + "(SQLite names ignore case); rename one")
        }
    }

    /// Each entity's root (itself when it has no known parent), memoized along the way so
    /// that long chains are walked once; a loop (reported elsewhere) ends the walk.
    private func rootNames(of entities: [EntityDescription]) -> [String: String] {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var roots: [String: String] = [:]
        for entity in entities where roots[entity.name] == nil {
            var walked: [String] = []
            var onWalk: Set<String> = []
            var root = entity.name
            var next: String? = entity.name
            while let name = next {
                if let known = roots[name] {
                    root = known
                    break
                }
                guard let current = byName[name], onWalk.insert(name).inserted else { break }
                walked.append(name)
                root = name
                next = current.parentEntityName.flatMap { byName[$0] != nil ? $0 : nil }
            }
            for name in walked { roots[name] = root }
        }
        return roots
    }
}
