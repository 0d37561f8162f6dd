#if PostgreSQL
import PersistenceModel
import PersistenceStore

/// The pieces of one SELECT over an entity's table (aliased `"t"`): the values bound so far
/// (`$1`, `$2`, … in order) and the LEFT JOINs that key paths through to-one relationships
/// need, one per distinct path. Shared by the predicate compiler and the ORDER BY list, so
/// that `author.name` in both reads one join.
struct PGQuery {
    let schema: PGSchema
    let root: PGSchema.Entity
    /// The statement's parameters, in placeholder order.
    private(set) var parameters: [PGValue]
    private(set) var joins: [String] = []
    private var joinAliases: [String: String] = [:]

    init(schema: PGSchema, root: PGSchema.Entity, parameters: [PGValue]) {
        self.schema = schema
        self.root = root
        self.parameters = parameters
    }

    /// Appends a parameter and returns its placeholder.
    mutating func bind(_ value: PGValue) -> String {
        parameters.append(value)
        return "$\(parameters.count)"
    }

    /// What a key path reaches, as SQL.
    enum Column {
        /// A stored attribute: its column (`alias.name`), the attribute, and the entity that
        /// declares it, whose derived attributes may hold a folded copy of it.
        case attribute(sql: String, attribute: AttributeDescription, entity: PGSchema.Entity, alias: String)
        /// A stored to-one relationship's key column.
        case toOne(sql: String)
    }

    /// The column a key path ends at, through stored to-one relationships (each a LEFT JOIN,
    /// so that a nil step yields NULL as it yields nil in memory); nil when the path is not
    /// of that form (a to-many step, a transient or unstored property, `SELF`, a key past an
    /// attribute), which the caller then leaves to memory.
    mutating func column(_ components: [String]) -> Column? {
        guard !components.isEmpty else { return nil }
        var entity = root
        var alias = "t"
        for (index, name) in components.enumerated() {
            guard let position = entity.schema.propertyIndex[name], let columnIndex = entity.columnIndex[position] else {
                return nil
            }
            let sql = "\(pgIdentifier(alias)).\(pgIdentifier(entity.table.columns[columnIndex].name))"
            let isLast = index == components.count - 1
            switch entity.schema.properties[position] {
            case .attribute(let attribute):
                guard isLast, attribute.isStored, !attribute.isTransient else { return nil }
                return .attribute(sql: sql, attribute: attribute, entity: entity, alias: alias)
            case .relationship(let relationship):
                guard !relationship.isToMany, !relationship.isTransient else { return nil }
                if isLast { return .toOne(sql: sql) }
                guard let destination = schema.entities[relationship.destinationEntityName] else { return nil }
                let path = components[...index].joined(separator: ".")
                if let existing = joinAliases[path] {
                    alias = existing
                } else {
                    let joined = "j\(joinAliases.count)"
                    joins.append(
                        "LEFT JOIN \(pgIdentifier(destination.table.name)) AS \(pgIdentifier(joined)) "
                            + "ON \(pgIdentifier(joined)).\"_id\" = \(sql)")
                    joinAliases[path] = joined
                    alias = joined
                }
                entity = destination
            }
        }
        return nil
    }

    /// The ORDER BY list for sort keys in `SortValueOrder`'s order, ties by primary key; nil
    /// when some key cannot be sorted on the server (it does not end at a stored attribute
    /// through to-ones, or its type has no server order equal to the in-memory one).
    ///
    /// Nil sorts first ascending and last descending; strings and URLs by code point
    /// (`COLLATE "C"`, UTF-8 byte order, which the U+0000 escape of `PGRowCodec` keeps);
    /// Double NaN after every number, as PostgreSQL orders it; UUIDs by their bytes, which
    /// is the order of their text; data bytewise, shorter prefix first.
    mutating func orderBy(_ keys: [SortKey]) -> String? {
        var terms: [String] = []
        for key in keys {
            guard case .attribute(let sql, let attribute, _, _)? = column(key.keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
            else { return nil }
            let expression: String
            switch attribute.type {
            case .integer16, .integer32, .integer64, .boolean, .double, .float, .decimal, .date, .uuid, .binaryData:
                expression = sql
            case .string, .uri:
                expression = "\(sql) COLLATE \"C\""
            case .transformable, .objectID, .undefined:
                return nil
            }
            terms.append(expression + (key.ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST"))
        }
        terms.append("\"t\".\"_id\"")
        return terms.joined(separator: ", ")
    }
}
#endif
