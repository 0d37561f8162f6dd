import Foundation
import PersistenceModel
import PersistenceStore

/// A store's objects as JSON, for any model: export, import and delete by ID, as
/// `persistence-tool store export|import|delete` does from the shell.
///
/// The document is one object with an array per entity name; each object lists its
/// properties by name, and `@id` names it:
///
/// ```json
/// {"Car": [{"@id": "c1", "numberPlate": "AB-123", "owner": "p1"}],
///  "Person": [{"@id": "p1", "firstName": "Ada", "cars": ["c1"]}]}
/// ```
///
/// - An object is listed under its own entity; objects of a sub-entity under the
///   sub-entity's name. An abstract entity has no list.
/// - `@id` is any string on import, used only for references within the document; export
///   writes the object's ID, `"Entity/p<primary key>"` (as `ObjectID.description`), which
///   `deleteObjects(withIDs:from:)` accepts.
/// - A to-one is one `@id` or null; a to-many an array of `@id`s, in order when ordered.
///   Import fills in inverses, so a document may state one side only; when it states both,
///   they must agree.
/// - Values are encoded as `ArchiveValueCodec` describes: Decimal as a string with every
///   digit, Date as ISO 8601 UTC, Binary and Transformable as base64 of the stored bytes,
///   `"inf"`, `"-inf"`, `"nan"` for Double and Float.
/// - Export leaves transient properties out and writes derived attributes; import ignores
///   both (derived values are recomputed by the save).
///
/// Export → import → export gives the same document but for the `@id` values: export's
/// order is deterministic (see `StoreArchiveWriter`) and a save gives keys in insertion
/// order.
public enum StoreArchive {
    /// Every object the context can fetch, as archive JSON text (pretty, two-space indent,
    /// no final newline). Unsaved changes count, as in a fetch.
    ///
    /// Objects are read a page at a time, but the text is returned whole: for a large store
    /// use `exportJSON(from:to:)`, which writes the same bytes to a file as they are made.
    ///
    /// - Throws: the store's `PersistentStoreFailure` when it cannot be read;
    ///   `ValueTransformerError` when a transformable value cannot be encoded.
    public static func exportJSON(from context: ManagedObjectContext) throws -> String {
        var text = ""
        try StoreArchiveWriter(context: context).write { text += $0 }
        return text
    }

    /// Inserts the objects of archive JSON into the context and saves them in one save: all
    /// or nothing.
    ///
    /// The context must have no unsaved changes: on failure it is rolled back, so that
    /// nothing of the import stays in memory or in the store.
    ///
    /// - Returns: the inserted objects, in document order, saved.
    /// - Throws: `StoreArchiveError` for JSON that does not parse or does not fit the model,
    ///   naming the JSON path and `@id`; `ValidationError` and `ConstraintConflictError`
    ///   from the save, whose objects are named by JSON path and `@id` instead of temporary
    ///   IDs; and the save's other errors.
    @discardableResult
    public static func importJSON(_ data: Data, into context: ManagedObjectContext) throws
        -> [ManagedObject]
    {
        let document: JSONValue
        do { document = try JSONValue.parse(data) } catch {
            throw StoreArchiveError(
                location: "line \(error.line), column \(error.column)",
                reason: "malformed JSON: \(error.reason)")
        }
        return try importDocument(document, into: context)
    }

    /// Imports a parsed archive document, as `importJSON(_:into:)`.
    package static func importDocument(_ document: JSONValue, into context: ManagedObjectContext)
        throws -> [ManagedObject]
    {
        try requireNoChanges(context, "importing")
        let inserted: StoreArchiveReader.Inserted
        do {
            inserted = try StoreArchiveReader(context: context).insertObjects(from: document)
        } catch {
            context.rollback()
            throw error
        }
        do { try context.save() } catch {
            context.rollback()
            throw relabeled(error, inserted.labels)
        }
        return inserted.objects
    }

    /// Deletes the objects with these IDs (as export writes them, `"Entity/p12"`; `"Entity/12"`
    /// works too) in one save, applying the relationships' delete rules.
    ///
    /// The context must have no unsaved changes. When a Deny rule refuses, a count falls
    /// below a relationship's minimum, or any ID names no object, nothing is deleted and the
    /// context is rolled back.
    ///
    /// - Returns: the IDs of every deleted object, the named ones and those cascaded to,
    ///   sorted by entity and key.
    /// - Throws: `StoreArchiveError` for an ID that is malformed or names no object;
    ///   `ValidationError` for a Deny rule or a count violation; the save's other errors.
    @discardableResult
    public static func deleteObjects(withIDs ids: [String], from context: ManagedObjectContext)
        throws -> [ObjectID]
    {
        try requireNoChanges(context, "deleting")
        let objects = try ids.map { try object(withArchiveID: $0, in: context) }
        for object in objects { context.delete(object) }
        let deleted = context.deletedObjects.map(\.objectID).sorted {
            ($0.entityName, $0.primaryKey ?? 0) < ($1.entityName, $1.primaryKey ?? 0)
        }
        do { try context.save() } catch {
            context.rollback()
            throw error
        }
        return deleted
    }

    /// The saved object an archive ID names (`"Car/p12"` or `"Car/12"`). A sub-entity's
    /// object may be named by an ancestor entity.
    ///
    /// - Throws: `StoreArchiveError` for a malformed ID, an unknown entity, or no such object.
    package static func object(withArchiveID id: String, in context: ManagedObjectContext) throws
        -> ManagedObject
    {
        func failure(_ reason: String) -> StoreArchiveError {
            StoreArchiveError(location: id, reason: reason)
        }
        let (entityName, key) = try parseArchiveID(id)
        guard let schema = context.model.schema(for: entityName) else {
            throw failure("the model has no entity named '\(QuotedText.excerpt(entityName))'")
        }
        let id = ObjectID(scope: context.idScope(for: schema), key: .permanent(key))
        guard let row = try context.persistentStoreCoordinator.read({ try $0.row(for: id) }), schema.includes(row.schema.name)
        else {
            throw failure("there is no \(entityName) with this ID in the store")
        }
        return context.object(for: row)
    }

    /// The entity name and primary key an archive ID names (`"Car/p12"` or `"Car/12"`),
    /// read without a store: a command can refuse a malformed ID before it opens one.
    ///
    /// - Throws: `StoreArchiveError` for a malformed ID.
    package static func parseArchiveID(_ id: String) throws(StoreArchiveError) -> (entityName: String, key: Int64) {
        func failure(_ reason: String) -> StoreArchiveError {
            StoreArchiveError(location: id, reason: reason)
        }
        guard let slash = id.lastIndex(of: "/") else {
            throw failure("is not an object ID: expected Entity/p<key>, as store export writes @id")
        }
        let entityName = String(id[..<slash])
        var keyText = id[id.index(after: slash)...]
        if keyText.hasPrefix("p") { keyText = keyText.dropFirst() }
        guard let key = Int64(keyText), key > 0, keyText.allSatisfy(\.isASCII) else {
            throw failure("is not an object ID: expected Entity/p<key>, as store export writes @id")
        }
        return (entityName, key)
    }

    // MARK: - Internals

    private static func requireNoChanges(_ context: ManagedObjectContext, _ action: String) throws {
        guard !context.hasChanges else {
            throw StoreArchiveError(
                location: "the context",
                reason:
                    "it has unsaved changes: save or roll them back before \(action), so that a failure undoes only its own work"
            )
        }
    }

    /// The save's error with temporary object IDs replaced by the objects' places in the
    /// document.
    private static func relabeled(_ error: Error, _ labels: [String: String]) -> Error {
        if var validation = error as? ValidationError {
            for index in validation.failures.indices {
                validation.failures[index].object =
                    labels[validation.failures[index].object] ?? validation.failures[index].object
            }
            return validation
        }
        if var conflict = error as? ConstraintConflictError {
            conflict.object = labels[conflict.object] ?? conflict.object
            return conflict
        }
        return error
    }
}
