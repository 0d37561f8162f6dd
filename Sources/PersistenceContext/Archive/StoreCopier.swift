import PersistenceModel
import PersistenceStore

/// Copies every object of one store into another, empty one, a page at a time: what
/// `persistence-tool store convert` does between a Persistence store and one in Core Data's
/// layout.
///
/// Rows go from store to store as rows, never as objects of a context: each entity's rows are
/// streamed from the source (`PersistentStore.forEachRow`) and written `pageSize` at a time,
/// each page in a write transaction of its own, so that memory holds one page, not the store.
/// Every object keeps its primary key (the destination's key counters are advanced to the
/// largest key copied), so that a to-one's value is copied as it is, and no map from old keys
/// to new ones is kept. Once every row is written, the links the destination keeps apart
/// from rows (a many-to-many's join table, the order of an ordered to-many) are written in a
/// second pass, in each relationship's order, from the side that holds the order (one side
/// of a many-to-many writes the shared links; an ordered other side then sets its order).
///
/// Values are copied as stored: derived attributes keep their values, and nothing is
/// validated (the source's objects were validated when they were saved). Transient
/// properties are not copied.
///
/// The copy is not one transaction: a failed copy leaves the destination partly written.
/// The caller makes the destination new and removes it on failure (as `store convert` does,
/// in a file it renames into place only once the copy succeeded).
package struct StoreCopier {
    /// The store copied.
    package let source: PersistentStoreCoordinator
    /// The store written: new, with no objects.
    package let destination: PersistentStoreCoordinator
    /// How many rows (or links) are written per transaction.
    package var pageSize = 2_000

    /// A copier from `source` into `destination`, which must have the same model (the same
    /// entities with the same properties in the same order) and no objects.
    package init(from source: PersistentStoreCoordinator, to destination: PersistentStoreCoordinator) {
        self.source = source
        self.destination = destination
    }

    /// Copies every object, then every link kept apart from rows; returns how many objects
    /// were copied.
    ///
    /// - Throws: `StoreCopyError` when the destination's model differs from the source's or
    ///   the destination already holds objects of an entity; the stores' failures when one
    ///   cannot be read or written; what the destination's writes refuse.
    @discardableResult
    package func copy() throws -> Int {
        let model = source.managedObjectModel
        let schemas = model.schemas.values.filter { !$0.isAbstract }.sorted { $0.name < $1.name }
        for schema in schemas {
            guard let other = destination.managedObjectModel.schema(for: schema.name), other.propertyNames == schema.propertyNames
            else {
                throw StoreCopyError("the destination's model does not have entity \(schema.name) with the same properties")
            }
        }
        var reserved: [String: Int64] = [:]
        var copied = 0
        for schema in schemas {
            copied += try copyRows(of: schema, reserved: &reserved)
        }
        for schema in schemas {
            try copyLinks(of: schema)
        }
        return copied
    }

    // MARK: - Rows

    /// Copies the rows of `schema`'s own objects (not its sub-entities'), a page at a time.
    /// `reserved` is the largest key given out so far in the destination, by root entity.
    private func copyRows(of schema: EntitySchema, reserved: inout [String: Int64]) throws -> Int {
        guard let target = destination.managedObjectModel.schema(for: schema.name) else { return 0 }
        let model = source.managedObjectModel
        var request = FetchRequest(entityName: schema.name)
        request.includesSubentities = false
        var page: [StoreRow] = []
        page.reserveCapacity(pageSize)
        var copied = 0
        // To-ones whose destination entity has sub-entities: the ID a store reads may name
        // the relationship's destination entity rather than the row's own, which a store
        // that records the destination's entity (Core Data's `Z<n>_<NAME>` column) needs.
        let resolvedPositions = schema.properties.indices.filter { position in
            guard case .relationship(let r) = schema.properties[position], !r.isToMany,
                let destination = model.schema(for: r.destinationEntityName)
            else { return false }
            return destination.hierarchyNames.count > 1
        }
        func flush(_ store: any PersistentStore) throws {
            guard !page.isEmpty else { return }
            var entities: [ObjectID: ObjectID] = [:]
            if !resolvedPositions.isEmpty {
                var ids: [ObjectID] = []
                for row in page {
                    for position in resolvedPositions {
                        if case .toOneFault(let id?) = row.slots[position] { ids.append(id) }
                    }
                }
                for found in try store.existingObjectIDs(among: ids) {
                    guard let key = found.primaryKey else { continue }
                    for position in resolvedPositions {
                        guard case .relationship(let r) = schema.properties[position],
                            let stated = model.schema(for: r.destinationEntityName)
                        else { continue }
                        let id = ObjectID(scope: store.idScope(entityName: stated.name, rootName: stated.rootName), key: .permanent(key))
                        entities[id] = found
                    }
                }
            }
            let rootName = schema.rootName
            let largest = page.lazy.map(\.primaryKey).max() ?? 0
            try destination.performWrite(rowCount: page.count) { store, transaction in
                let already = reserved[rootName] ?? 0
                if largest > already {
                    let first = try transaction.allocateKeys(rootEntity: rootName, count: Int(largest - already))
                    guard first == already + 1 else {
                        throw StoreCopyError("the destination already holds objects of \(rootName)'s entities")
                    }
                    reserved[rootName] = largest
                }
                for (index, row) in page.enumerated() {
                    let object = CopiedRow(row: row, schema: target, in: store, entities: entities)
                    try transaction.insert(object, key: row.primaryKey, tag: index, onConflict: .fail)
                }
                try transaction.flush()
            }
            copied += page.count
            page.removeAll(keepingCapacity: true)
        }
        try source.read { store in
            try store.forEachRow(request) { row in
                page.append(row)
                if page.count >= pageSize { try flush(store) }
                return true
            }
            try flush(store)
        }
        return copied
    }

    // MARK: - Links

    /// What one side of a to-many writes of the links its store keeps apart from rows.
    private enum LinkRole {
        /// Every link, in order (`linkNewRows`).
        case write
        /// Each link's place in this ordered side, the other side having written the links.
        case order
        /// Each link by itself (`setLink`, which adds only what is missing): a
        /// relationship that is its own inverse.
        case each
    }

    /// Writes the links of `schema`'s own objects that the destination keeps apart from rows.
    private func copyLinks(of schema: EntitySchema) throws {
        let relationships: [(RelationshipDescription, LinkRole)] = try destination.performWrite(rowCount: 0) { _, transaction in
            let storedApart = { (entity: String, relationship: String) in
                transaction.storesLinksInJoinTable(entity: entity, relationship: relationship)
            }
            return schema.properties.compactMap { property in
                guard case .relationship(let r) = property, r.isToMany,
                    let role = role(of: r, in: schema, storedApart: storedApart)
                else { return nil }
                return (r, role)
            }
        }
        guard !relationships.isEmpty else { return }
        var request = FetchRequest(entityName: schema.name)
        request.includesSubentities = false
        var pending: [(relationship: Int, own: Int64, others: [Int64])] = []
        var pendingCount = 0
        func flush() throws {
            guard !pending.isEmpty else { return }
            try destination.performWrite(rowCount: pendingCount) { _, transaction in
                for (index, (relationship, role)) in relationships.enumerated() {
                    let links = pending.filter { $0.relationship == index }
                    guard !links.isEmpty else { continue }
                    switch role {
                    case .write:
                        try transaction.linkNewRows(
                            entity: schema.name, relationship: relationship.name, links: links.map { ($0.own, $0.others) })
                    case .order, .each:
                        for link in links {
                            for (position, other) in link.others.enumerated() {
                                try transaction.setLink(
                                    entity: schema.name, relationship: relationship.name, from: link.own, to: other,
                                    position: relationship.isOrdered ? position : nil)
                            }
                        }
                    }
                }
            }
            pending.removeAll(keepingCapacity: true)
            pendingCount = 0
        }
        try source.read { store in
            try store.forEachRow(request) { row in
                let id = ObjectID(scope: row.idScope, key: .permanent(row.primaryKey))
                for (index, (relationship, _)) in relationships.enumerated() {
                    let others = try store.destinationIDs(of: relationship, from: id).compactMap(\.primaryKey)
                    guard !others.isEmpty else { continue }
                    pending.append((index, row.primaryKey, others))
                    pendingCount += others.count
                }
                if pendingCount >= pageSize || pending.count >= pageSize { try flush() }
                return true
            }
            try flush()
        }
    }

    /// What `schema`'s side of the to-many `relationship` writes, or nil when the
    /// destination keeps its links in rows (a to-one's column) or the other side writes them.
    private func role(
        of relationship: RelationshipDescription, in schema: EntitySchema,
        storedApart: (_ entity: String, _ relationship: String) -> Bool
    ) -> LinkRole? {
        guard storedApart(schema.name, relationship.name) else { return nil }
        guard let inverseName = relationship.inverseName,
            let destination = source.managedObjectModel.schema(for: relationship.destinationEntityName),
            let inverse = destination.relationship(named: inverseName), inverse.isToMany,
            storedApart(destination.name, inverseName)
        else { return .write }
        // A many-to-many: both sides name the same links. The ordered side writes them (its
        // order is kept as they are written); else the side first by name.
        if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered ? .write : nil }
        let mine = (relationship.name, relationship.destinationEntityName)
        let theirs = (inverse.name, inverse.destinationEntityName)
        if mine == theirs { return .each }
        if mine < theirs { return .write }
        return relationship.isOrdered ? .order : nil
    }
}

/// A stored row as an object a destination store's transaction writes: its slots as read,
/// each to-one's destination ID made in the destination store (naming the row's own entity).
private final class CopiedRow: SavedObject {
    let objectID: ObjectID
    let schema: EntitySchema
    private let row: StoreRow
    private unowned let store: any PersistentStore
    private let entities: [ObjectID: ObjectID]

    init(row: StoreRow, schema: EntitySchema, in store: any PersistentStore, entities: [ObjectID: ObjectID]) {
        self.row = row
        self.schema = schema
        self.store = store
        self.entities = entities
        objectID = ObjectID(
            scope: store.idScope(entityName: schema.name, rootName: schema.rootName), key: .permanent(row.primaryKey))
    }

    func storedSlot(at position: Int) -> StoredSlot {
        guard position < row.slots.count else { return .value(.null) }
        let slot = row.slots[position]
        guard case .toOneFault(let id?) = slot, let key = id.primaryKey else { return slot }
        let named = entities[id] ?? id
        return .toOneFault(ObjectID(scope: store.idScope(entityName: named.entityName, rootName: named.rootName), key: .permanent(key)))
    }
}

/// Why a store cannot be copied into another.
package struct StoreCopyError: Error, CustomStringConvertible {
    /// The reason, as a sentence.
    package let description: String

    init(_ description: String) { self.description = description }
}
