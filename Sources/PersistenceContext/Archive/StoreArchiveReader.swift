import PersistenceModel
import PersistenceStore
/// Reads archive JSON (see `StoreArchive`) into a context: inserts one object per JSON
/// object, sets its attributes, then links relationships through the context, so that
/// inverses are filled in when the document states only one side.
///
/// Nothing is saved here; the first problem, in document order, is thrown with its JSON
/// path. Derived attributes and transient properties in the document are ignored (derived
/// values are recomputed on save). When the document states both sides of a relationship,
/// they must agree.
package struct StoreArchiveReader {
    /// The objects a document inserted.
    package struct Inserted {
        /// The inserted objects, in document order.
        package var objects: [ManagedObject]
        /// Each object's place in the document (`$.Car[0] (@id "c1")`), by the description
        /// of its temporary ID, for rewriting the save's errors.
        package var labels: [String: String]
    }

    /// The context objects are inserted into.
    package let context: ManagedObjectContext

    /// Creates a reader that inserts into `context`.
    package init(context: ManagedObjectContext) { self.context = context }

    /// Inserts the document's objects into the context, without saving.
    ///
    /// - Throws: `StoreArchiveError` naming the JSON path (and `@id`) of the first object,
    ///   property or value that the model does not accept.
    package func insertObjects(from document: JSONValue) throws -> Inserted {
        let entries = try insertEntries(document)
        var indexByLocalID: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            if let id = entry.localID { indexByLocalID[id] = index }
        }
        var links: [Link] = []
        for index in entries.indices {
            links += try setAttributes(of: index, in: entries, indexByLocalID)
        }
        // To-ones first: a to-many set afterwards fixes its own order.
        for link in links where !link.isToMany { try apply(link, entries) }
        for link in links where link.isToMany { try apply(link, entries) }
        for link in links { try verify(link, entries) }
        var labels: [String: String] = [:]
        for entry in entries { labels[entry.object.objectID.description] = entry.label }
        return Inserted(objects: entries.map(\.object), labels: labels)
    }

    // MARK: - Objects

    private struct Entry {
        var object: ManagedObject
        var path: String
        var localID: String?
        var members: [(String, JSONValue)]

        var label: String { path + (localID.map { " (@id \(QuotedText.doubleQuotedExcerpt($0)))" } ?? "") }

        func error(_ key: String?, _ reason: String) -> StoreArchiveError {
            StoreArchiveError(
                location: path + (key.map { ".\($0)" } ?? ""), localID: localID, reason: reason)
        }
    }

    private func insertEntries(_ document: JSONValue) throws -> [Entry] {
        guard case .object(let groups) = document else {
            throw StoreArchiveError(
                location: "$",
                reason:
                    "expected an object with an array of objects per entity name, got \(document.kindDescription)"
            )
        }
        var entries: [Entry] = []
        var seenEntities: Set<String> = []
        var byLocalID: [String: String] = [:]
        for (name, value) in groups {
            let path = "$." + name
            guard seenEntities.insert(name).inserted else {
                throw StoreArchiveError(
                    location: path, reason: "the entity \(name) appears twice in the document")
            }
            guard let schema = context.model.schema(for: name) else {
                let names = QuotedText.list(context.model.schemas.keys.sorted(), limit: 20)
                throw StoreArchiveError(
                    location: path,
                    reason: "the model has no entity named '\(QuotedText.excerpt(name))' (its entities: \(names))")
            }
            guard !schema.isAbstract else {
                throw StoreArchiveError(
                    location: path,
                    reason:
                        "\(name) is abstract: list its objects under their own entities (\(schema.hierarchyNames.dropFirst().joined(separator: ", ")))"
                )
            }
            guard case .array(let items) = value else {
                throw StoreArchiveError(
                    location: path,
                    reason: "expected an array of \(name) objects, got \(value.kindDescription)")
            }
            for (index, item) in items.enumerated() {
                let itemPath = "\(path)[\(index)]"
                guard case .object(let members) = item else {
                    throw StoreArchiveError(
                        location: itemPath,
                        reason: "expected a \(name) object, got \(item.kindDescription)")
                }
                var localID: String?
                var keys: Set<String> = []
                for (key, member) in members {
                    guard keys.insert(key).inserted else {
                        throw StoreArchiveError(
                            location: "\(itemPath).\(key)",
                            reason: "the key appears twice in the object")
                    }
                    guard key == "@id" else { continue }
                    guard case .string(let id) = member, !id.isEmpty else {
                        throw StoreArchiveError(
                            location: "\(itemPath).@id",
                            reason: "expected a non-empty string, got \(member.shortDescription)")
                    }
                    if let other = byLocalID[id] {
                        throw StoreArchiveError(
                            location: itemPath, localID: id,
                            reason: "the @id is already used by \(other)")
                    }
                    byLocalID[id] = itemPath
                    localID = id
                }
                let object = try context.insertObject(forEntityName: name)
                entries.append(
                    Entry(object: object, path: itemPath, localID: localID, members: members))
            }
        }
        return entries
    }

    // MARK: - Attributes

    /// A relationship as the document states it: the destinations' entry indexes.
    private struct Link {
        var entry: Int
        var key: String
        var position: Int
        var isToMany: Bool
        var destinations: [Int]
    }

    private func setAttributes(
        of entryIndex: Int, in entries: [Entry], _ indexByLocalID: [String: Int]
    ) throws -> [Link] {
        let entry = entries[entryIndex]
        let object = entry.object
        let schema = object.schema
        var links: [Link] = []
        for (key, value) in entry.members where key != "@id" {
            guard let position = schema.propertyIndex[key] else {
                let names = QuotedText.list(schema.properties.map(\.name).sorted(), limit: 20)
                throw entry.error(
                    key,
                    "\(schema.name) has no property named '\(QuotedText.excerpt(key))' (its properties: \(names))")
            }
            switch schema.properties[position] {
            case .attribute(let attribute):
                if attribute.isDerived || attribute.isTransient { continue }
                do {
                    let converted = try ArchiveValueCodec.value(value, for: attribute)
                    try object.setValue(converted, forKey: key)
                } catch let failure as ArchiveValueFailure {
                    throw entry.error(key, failure.reason)
                } catch let failure as ObjectAccessError {
                    throw entry.error(key, failure.reason)
                }
            case .relationship(let relationship):
                if relationship.isTransient { continue }
                let destinations = try references(
                    value, relationship, entry: entry, key: key, indexByLocalID)
                links.append(
                    Link(
                        entry: entryIndex, key: key, position: position,
                        isToMany: relationship.isToMany, destinations: destinations))
            }
        }
        return links
    }

    private func references(
        _ value: JSONValue, _ relationship: RelationshipDescription, entry: Entry, key: String,
        _ indexByLocalID: [String: Int]
    ) throws -> [Int] {
        let references: [JSONValue]
        switch (value, relationship.isToMany) {
        case (.null, false): return []
        case (.string, false): references = [value]
        case (.array(let items), true): references = items
        case (_, false):
            throw entry.error(
                key,
                "expected an @id string or null for the to-one \(relationship.name), got \(value.shortDescription)"
            )
        case (_, true):
            throw entry.error(
                key,
                "expected an array of @id strings for the to-many \(relationship.name), got \(value.kindDescription)"
            )
        }
        var result: [Int] = []
        var seen: Set<Int> = []
        for reference in references {
            guard case .string(let id) = reference else {
                throw entry.error(key, "expected an @id string, got \(reference.shortDescription)")
            }
            guard let index = indexByLocalID[id] else {
                throw entry.error(
                    key, "no object in the document has @id \(QuotedText.doubleQuotedExcerpt(id))")
            }
            guard seen.insert(index).inserted else {
                throw entry.error(key, "lists @id \(QuotedText.doubleQuotedExcerpt(id)) twice")
            }
            result.append(index)
        }
        return result
    }

    // MARK: - Relationships

    private func apply(_ link: Link, _ entries: [Entry]) throws {
        let entry = entries[link.entry]
        let destinations = link.destinations.map { entries[$0].object }
        do {
            if link.isToMany {
                try entry.object.setValue(destinations, forKey: link.key)
            } else {
                try entry.object.setValue(destinations.first, forKey: link.key)
            }
        } catch let failure as ObjectAccessError {
            throw entry.error(link.key, failure.reason)
        }
    }

    /// Checks that the relationship still holds what the document says after every link was
    /// made: it does not when the other side of the relationship says otherwise.
    private func verify(_ link: Link, _ entries: [Entry]) throws {
        let entry = entries[link.entry]
        let object = entry.object
        let inverse = object.relationship(at: link.position).inverseName ?? "inverse"
        let expected = link.destinations.map { entries[$0].object }
        let actual =
            link.isToMany
            ? object.objects(at: link.position)
            : (object.object(at: link.position).map { [$0] } ?? [])
        func label(_ other: ManagedObject) -> String {
            entries.first { $0.object === other }?.label ?? other.objectID.description
        }
        let expectedSet = Set(expected.map(ObjectIdentifier.init))
        let actualSet = Set(actual.map(ObjectIdentifier.init))
        if let extra = actual.first(where: { !expectedSet.contains(ObjectIdentifier($0)) }) {
            throw entry.error(
                link.key,
                "the two sides of the relationship disagree: \(label(extra)) names this object in \(inverse), which \(link.key) here does not name"
            )
        }
        if let missing = expected.first(where: { !actualSet.contains(ObjectIdentifier($0)) }) {
            throw entry.error(
                link.key,
                "the two sides of the relationship disagree: \(link.key) here names \(label(missing)), whose \(inverse) names another object"
            )
        }
    }
}
