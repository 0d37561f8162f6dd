import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
/// Where a source relationship's links are, as rows of one set-aside table aliased `j`:
/// the `own` column holds the key of the object that has the relationship, `other` the key
/// of its destination. A to-one keeps them in the owner's row, a to-many with a to-one
/// inverse in the destination's row, any other to-many in its join table (with positions
/// when ordered).
struct MigrationLinks {
    /// The table the links are read from (its original name; read from its set-aside copy).
    var table: String
    /// The column of the owning object's key.
    var own: String
    /// The column of the destination's key.
    var other: String
    /// The column of the destination's position in the owner's relationship, if any.
    var position: String?
    /// The column of the owner's position in the destination's inverse, if any.
    var otherPosition: String?
    /// Conditions on `j` that select the links (SQL, joined with AND).
    var conditions: [String]

    /// The same links seen from the destination's side.
    var reversed: MigrationLinks {
        MigrationLinks(table: table, own: other, other: own, position: otherPosition, otherPosition: position, conditions: conditions)
    }
}

extension MigrationExecutor {
    /// Where the links of a source relationship are, or nil when it has none stored.
    func links(of relationship: RelationshipDescription, in owner: EntitySchema) -> MigrationLinks? {
        if relationship.isTransient { return nil }
        func entityFilter(_ schema: EntitySchema) -> [String] {
            guard sourceSchema.tables[schema.rootName]?.hasEntityColumn == true else { return [] }
            return ["j.\"_entity\" IN (\(schema.hierarchyNames.map(sqlLiteral).joined(separator: ", ")))"]
        }
        if let side = sourceSchema.joinSide(entity: owner.name, relationship: relationship.name) {
            guard existingTables.contains(side.table.name) else { return nil }
            let otherPosition = side.isSource
                ? (side.table.hasInversePosition ? "inversePosition" : nil) : (side.table.hasPosition ? "position" : nil)
            return MigrationLinks(
                table: side.table.name, own: side.ownColumn, other: side.otherColumn,
                position: side.positionColumn, otherPosition: otherPosition, conditions: [])
        }
        if !relationship.isToMany {
            return MigrationLinks(
                table: owner.rootName, own: "_id", other: relationship.name, position: nil, otherPosition: nil,
                conditions: ["j.\(sqlIdentifier(relationship.name)) IS NOT NULL"] + entityFilter(owner))
        }
        guard let inverseName = relationship.inverseName,
            let destination = plan.source.schema(for: relationship.destinationEntityName),
            let inverse = destination.relationship(named: inverseName), !inverse.isToMany, !inverse.isTransient
        else { return nil }
        return MigrationLinks(
            table: destination.rootName, own: inverseName, other: "_id", position: nil, otherPosition: nil,
            conditions: ["j.\(sqlIdentifier(inverseName)) IS NOT NULL"] + entityFilter(destination))
    }

    /// The SQL (over `src`, a row of `sourceTable`) for a destination to-one column whose
    /// links are `links`. Refuses, naming them, objects that would need more than one.
    func toOneValue(
        from links: MigrationLinks?, sourceTable: TableMapping, for entity: String, _ property: String
    ) throws -> (String, [SQLiteValue]) {
        guard let links else { return ("NULL", []) }
        if links.table == sourceTable.name, links.own == "_id" {
            return ("src.\(sqlIdentifier(links.other))", [])
        }
        let aside = Self.aside(links.table)
        // The set-aside table lost its indexes: one on the key column keeps this linear.
        try database.execute(
            "CREATE INDEX IF NOT EXISTS \(sqlIdentifier(aside + "_" + links.own)) ON \(sqlIdentifier(aside)) "
                + "(\(sqlIdentifier(links.own)))")
        let own = "j.\(sqlIdentifier(links.own))", other = "j.\(sqlIdentifier(links.other))"
        let from = "\(sqlIdentifier(aside)) AS j"
        let conditions = links.conditions + ["\(own) IS NOT NULL"]
        let crowded = try database.query(
            "SELECT \(own), group_concat(\(other), ', ') FROM \(from) WHERE \(conditions.joined(separator: " AND ")) "
                + "GROUP BY \(own) HAVING count(*) > 1 LIMIT 5")
        if !crowded.isEmpty {
            let destination = plan.destination.schema(for: entity)?.relationship(named: property)?.destinationEntityName ?? "?"
            let list = crowded.map { "\(entity) \($0[0].int64Value ?? 0) has \(destination) \($0[1].textValue ?? "")" }
            throw MigrationError(
                .tooManyDestinations, entity: entity, property: property,
                reason: "it becomes to-one, but some objects have more than one destination ("
                    + list.joined(separator: "; ") + ")")
        }
        let order = links.position.map { "j.\(sqlIdentifier($0)), " } ?? ""
        return (
            "(SELECT \(other) FROM \(from) WHERE \((links.conditions + ["\(own) = src.\"_id\""]).joined(separator: " AND ")) "
                + "ORDER BY \(order)j.rowid LIMIT 1)", []
        )
    }

    /// Fills a destination join table from the links of the source relationship its source
    /// side comes from (or its inverse's), in their order; links to objects that are gone
    /// are dropped.
    func copyLinks(into table: JoinTableMapping) throws {
        var found: MigrationLinks?
        for (entity, sides) in destinationSchema.joinSides.sorted(by: { $0.key < $1.key }) {
            guard let schema = destinationSchema.entities[entity]?.schema else { continue }
            for (name, side) in sides.sorted(by: { $0.key < $1.key }) where side.table.name == table.name {
                guard let relationship = schema.relationship(named: name) else { continue }
                var links: MigrationLinks?
                if let source = sourceProperty(of: name, in: schema), case .relationship(let was) = source.property {
                    links = self.links(of: was, in: source.entity)
                } else if let inverse = relationship.inverseName,
                    let destination = plan.destination.schema(for: relationship.destinationEntityName),
                    let source = sourceProperty(of: inverse, in: destination), case .relationship(let was) = source.property
                {
                    links = self.links(of: was, in: source.entity)?.reversed
                }
                if let links, found == nil { found = side.isSource ? links : links.reversed }
            }
        }
        guard let links = found else { return }
        var columns = ["\"source\"", "\"destination\""]
        var values = ["j.\(sqlIdentifier(links.own))", "j.\(sqlIdentifier(links.other))"]
        if table.hasPosition {
            columns.append("\"position\"")
            values.append(links.position.map { "j.\(sqlIdentifier($0))" } ?? "NULL")
        }
        if table.hasInversePosition {
            columns.append("\"inversePosition\"")
            values.append(links.otherPosition.map { "j.\(sqlIdentifier($0))" } ?? "NULL")
        }
        let order = links.position.map { "j.\(sqlIdentifier($0)) IS NULL, j.\(sqlIdentifier($0)), " } ?? ""
        let name = sqlIdentifier(table.name)
        try database.execute(
            "INSERT OR IGNORE INTO \(name) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) "
                + "FROM \(sqlIdentifier(Self.aside(links.table))) AS j"
                + (links.conditions.isEmpty ? "" : " WHERE " + links.conditions.joined(separator: " AND "))
                + " ORDER BY \(order)j.rowid")
        try database.execute(
            "DELETE FROM \(name) WHERE \"source\" NOT IN (SELECT \"_id\" FROM \(sqlIdentifier(table.sourceTable))) "
                + "OR \"destination\" NOT IN (SELECT \"_id\" FROM \(sqlIdentifier(table.destinationTable)))")
    }
}
