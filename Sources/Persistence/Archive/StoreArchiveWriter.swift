/// Writes every object a context can fetch as archive JSON (see `StoreArchive`).
///
/// The order is deterministic: entities by name, each entity's own objects (sub-entities
/// under their own names) by primary key, and in each object `@id` first, then its
/// properties by name. An unordered to-many lists its destinations in document order; an
/// ordered one in its own order. Transient properties are left out; derived attributes are
/// written. A to-one whose destination is gone (a No Action delete) is written as null,
/// which is what it reads as.
package struct StoreArchiveWriter {
    /// The context whose objects are written.
    package let context: ManagedObjectContext

    /// Creates a writer for a context's objects.
    package init(context: ManagedObjectContext) { self.context = context }

    /// The archive document.
    ///
    /// - Throws: `SQLiteError` or `StoreError` when the store cannot be read;
    ///   `ValueTransformerError` when a transformable value cannot be encoded.
    package func document() throws -> JSONValue {
        let schemas = context.model.schemas.values
            .filter { !$0.isAbstract }
            .sorted { $0.name < $1.name }
        var groups: [(schema: EntitySchema, objects: [ManagedObject])] = []
        var places: [ObjectID: Place] = [:]
        var ordinal = 0
        for schema in schemas {
            var request = FetchRequest(entityName: schema.name)
            request.includesSubentities = false
            let objects = try context.fetch(request)
            guard !objects.isEmpty else { continue }
            for object in objects {
                places[object.objectID] = Place(id: object.objectID.description, ordinal: ordinal)
                ordinal += 1
            }
            groups.append((schema, objects))
        }
        var members: [(String, JSONValue)] = []
        for group in groups {
            let properties = group.schema.properties.enumerated()
                .filter { !$0.element.isTransient }
                .sorted { $0.element.name < $1.element.name }
            var items: [JSONValue] = []
            items.reserveCapacity(group.objects.count)
            for object in group.objects {
                var fields: [(String, JSONValue)] = [("@id", .string(object.objectID.description))]
                for (position, property) in properties {
                    fields.append((property.name, try json(object, position, property, places)))
                }
                items.append(.object(fields))
            }
            members.append((group.schema.name, .array(items)))
        }
        return .object(members)
    }

    // MARK: - Internals

    /// An exported object's `@id` and its position in the document.
    private struct Place {
        var id: String
        var ordinal: Int
    }

    private func json(
        _ object: ManagedObject, _ position: Int, _ property: SchemaProperty,
        _ places: [ObjectID: Place]
    ) throws -> JSONValue {
        switch property {
        case .attribute(let attribute):
            return try ArchiveValueCodec.json(
                object.attributeValue(at: position), for: attribute, entity: object.entityName)
        case .relationship(let relationship):
            let ids = object.objectIDs(forRelationshipNamed: relationship.name)
            if !relationship.isToMany {
                return ids.first.flatMap { places[$0] }.map { .string($0.id) } ?? .null
            }
            var destinations = ids.compactMap { places[$0] }
            if !relationship.isOrdered { destinations.sort { $0.ordinal < $1.ordinal } }
            return .array(destinations.map { .string($0.id) })
        }
    }
}
