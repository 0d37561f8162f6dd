import PersistenceModel
import PersistenceStore
/// Writes every object a context can fetch as archive JSON (see `StoreArchive`), streaming.
///
/// The order is deterministic: entities by name, each entity's own objects (sub-entities
/// under their own names) by primary key, and in each object `@id` first, then its
/// properties by name. An unordered to-many lists its destinations in document order; an
/// ordered one in its own order. Transient properties are left out; derived attributes are
/// written. A to-one whose destination is gone (a No Action delete) is written as null,
/// which is what it reads as.
///
/// Objects are read and written a page at a time (`pageSize` objects, fewer when they
/// reference more than `destinationBudget` destinations), so memory follows the page, not
/// the store: a page's relationship destinations are looked up in the store (one query
/// per table) for their `@id` and document position, instead of a map of every object.
/// A context with unsaved changes is the exception: its unsaved objects have no row to look
/// up, so a map of every object's place is built first, as a fetch sees them.
package struct StoreArchiveWriter {
    /// The context whose objects are written.
    package let context: ManagedObjectContext
    /// How many objects are read before they are written and released.
    package var pageSize = 256
    /// How many relationship destinations a page may reference before it is written early:
    /// an author with a thousand books weighs a thousand objects.
    package var destinationBudget = 4_096

    /// Creates a writer for a context's objects.
    package init(context: ManagedObjectContext) { self.context = context }

    /// Writes the archive text (pretty, two-space indent, no final newline) in pieces, in
    /// order, to `emit`.
    ///
    /// The text is the same as `JSONValue.rendered()` of the whole document would give.
    ///
    /// - Throws: the store's `PersistentStoreFailure` when it cannot be read;
    ///   `ValueTransformerError` when a transformable value cannot be encoded; whatever
    ///   `emit` throws.
    package func write(to emit: (String) throws -> Void) throws {
        let schemas = context.model.schemas.values
            .filter { !$0.isAbstract }
            .sorted { $0.name < $1.name }
        var order: [String: Int] = [:]
        for (index, schema) in schemas.enumerated() { order[schema.name] = index }
        let known = context.hasChanges ? try placesAsFetched(schemas) : nil
        var wroteGroup = false
        for schema in schemas {
            var request = FetchRequest(entityName: schema.name)
            request.includesSubentities = false
            let properties = schema.properties.enumerated()
                .filter { !$0.element.isTransient }
                .sorted { $0.element.name < $1.element.name }
            var page: [(object: ManagedObject, destinations: [[ObjectID]])] = []
            var destinationCount = 0
            var wroteItem = false
            func flush() throws {
                guard !page.isEmpty else { return }
                let places = try known ?? storedPlaces(of: page.lazy.flatMap { $0.destinations.joined() }, order: order)
                for (object, ids) in page {
                    var fields: [(String, JSONValue)] = [("@id", .string(object.objectID.description))]
                    for ((position, property), ids) in zip(properties, ids) {
                        fields.append((property.name, try json(object, position, property, ids, places)))
                    }
                    if !wroteItem {
                        try emit((wroteGroup ? ",\n" : "{\n") + "  " + JSONValue.quoted(schema.name) + ": [\n    ")
                        wroteGroup = true
                        wroteItem = true
                    } else {
                        try emit(",\n    ")
                    }
                    try emit(JSONValue.object(fields).rendered(indent: 2))
                }
                page.removeAll(keepingCapacity: true)
                destinationCount = 0
            }
            try context.forEach(request) { object in
                // Each relationship's destination IDs, read once per object.
                let destinations = properties.map { _, property -> [ObjectID] in
                    guard case .relationship(let r) = property else { return [] }
                    return object.objectIDs(forRelationshipNamed: r.name)
                }
                page.append((object, destinations))
                destinationCount += destinations.reduce(0) { $0 + $1.count }
                if page.count >= pageSize || destinationCount >= destinationBudget { try flush() }
                return true
            }
            try flush()
            if wroteItem { try emit("\n  ]") }
        }
        try emit(wroteGroup ? "\n}" : "{}")
    }

    // MARK: - Internals

    /// An exported object's `@id` and its position in the document: (entity's place, key)
    /// for a stored object, (ordinal, 0) when places come from a fetch.
    private struct Place {
        var id: String
        var rank: (Int, Int64)
    }

    /// Every object's place, as fetched: for a context with unsaved changes.
    private func placesAsFetched(_ schemas: [EntitySchema]) throws -> [ObjectID: Place] {
        var places: [ObjectID: Place] = [:]
        var ordinal = 0
        for schema in schemas {
            var request = FetchRequest(entityName: schema.name)
            request.includesSubentities = false
            try context.forEach(request) { object in
                places[object.objectID] = Place(id: object.objectID.description, rank: (ordinal, 0))
                ordinal += 1
                return true
            }
        }
        return places
    }

    /// The places of the rows that `ids` name and that exist, read from the store: a
    /// reference to a row that is gone has no place. The row's own entity names it (an ID
    /// read from a to-one column may carry its relationship's destination entity instead).
    private func storedPlaces<S: Sequence<ObjectID>>(of ids: S, order: [String: Int]) throws -> [ObjectID: Place] {
        var places: [ObjectID: Place] = [:]
        for id in try context.persistentStoreCoordinator.read({ try $0.existingObjectIDs(among: Array(ids)) }) {
            guard let rank = order[id.entityName], let key = id.primaryKey else { continue }
            places[id] = Place(id: id.description, rank: (rank, key))
        }
        return places
    }

    private func json(
        _ object: ManagedObject, _ position: Int, _ property: SchemaProperty, _ ids: [ObjectID],
        _ places: [ObjectID: Place]
    ) throws -> JSONValue {
        switch property {
        case .attribute(let attribute):
            return try ArchiveValueCodec.json(
                object.attributeValue(at: position), for: attribute, entity: object.entityName)
        case .relationship(let relationship):
            if !relationship.isToMany {
                return ids.first.flatMap { places[$0] }.map { .string($0.id) } ?? .null
            }
            var destinations = ids.compactMap { places[$0] }
            if !relationship.isOrdered { destinations.sort { $0.rank < $1.rank } }
            return .array(destinations.map { .string($0.id) })
        }
    }
}
