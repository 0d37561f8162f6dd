import Foundation
import PersistenceModel
import PersistenceStore

/// Rows of one entity written straight to the store, without an object per row: Core Data's
/// `NSBatchInsertRequest` with its `dictionaryHandler`.
///
/// Each row is filled by `fill` when it is written, so that memory holds one row at a
/// time, and goes through what a save does to an inserted object: default values, derived
/// attributes, every validation rule, uniqueness constraints (against the other rows and the
/// store), and the search index. What it skips is the object: nothing is registered in the
/// context, no lifecycle hook runs, and no computed transient is computed.
///
/// ```swift
/// let request = BatchInsertRequest(entityName: "Book", count: books.count) { index, row in
///     try row.setAttribute(books[index].title, forKey: "title")
///     try row.setObject(publishers[books[index].publisher], forKey: "publisher")
///     try row.setObjects(books[index].authors.map { authors[$0] }, forKey: "authors")
/// }
/// try context.execute(request)
/// ```
///
/// A row sets attributes, to-one relationships kept in its own column, and to-many
/// relationships whose links the store keeps apart from rows (a many-to-many, or a to-many
/// without an inverse; ordered ones keep the row's order), each inverse, if any, being an
/// unordered to-many. A to-many kept in its destinations' rows (its inverse is a to-one)
/// is set from that side. (Core Data's batch insert sets no relationships at all.) The
/// links of a chunk of rows are written right after its rows, one per destination.
/// Derived `@count` and `@sum` values that a destination keeps over the inverse of a
/// to-one are recomputed from the store after the rows are written; a to-many over whose
/// inverse the destination keeps one is refused.
///
/// Under the `.mergeByPropertyObjectTrump` merge policy a row whose unique values are already stored
/// updates that row (an upsert): its columns replace the stored ones, and the stored row
/// keeps its primary key, so what links to it stays linked, its many-to-many links
/// included; so it does under `.overwrite`. Such a row cannot set to-many links (it would
/// have to replace the stored row's, which an inserted object that takes a row over does):
/// under these policies a row that sets any is refused, naming the row and key, and
/// nothing is written. Under `.mergeByPropertyStoreTrump` and `.rollback` such a row is
/// skipped and the stored one left as it is, its links included (the store's state wins,
/// as for inserted objects): the skipped row writes no link. Under `.error` the request
/// fails naming the row and values, and writes no row and no link.
public struct BatchInsertRequest {
    /// The entity of the rows (not abstract).
    public let entityName: String
    /// How many rows `fill` makes: rows `0..<count`.
    public let count: Int
    /// Sets the values of row `index`.
    let fill: (_ index: Int, _ row: inout BatchInsertRow) throws -> Void

    /// A request for `count` rows, each filled by `fill` with its index.
    ///
    /// `fill` may throw (an error from a row's setter, or its own): the request then writes
    /// nothing and the error reaches the caller.
    public init(
        entityName: String, count: Int, fill: @escaping (_ index: Int, _ row: inout BatchInsertRow) throws -> Void
    ) {
        self.entityName = entityName
        self.count = max(0, count)
        self.fill = fill
    }

    /// A request for one row per dictionary, its values set as `setValue(_:forKey:)` does.
    public init(entityName: String, objects: [[String: Any?]]) {
        self.init(entityName: entityName, count: objects.count) { index, row in
            for (key, value) in objects[index] { try row.setValue(value, forKey: key) }
        }
    }
}

/// One row of a ``BatchInsertRequest``, as its `fill` closure sets it: attribute values,
/// to-one destinations and to-many destination lists by name, each checked as
/// `ManagedObject.setValue(_:forKey:)` checks it. A value left unset keeps the attribute's
/// default; a to-many left unset has no links.
public struct BatchInsertRow {
    /// The row's number in its request, from 0.
    public let index: Int
    /// What every row of the request shares.
    let template: BatchInsertTemplate
    /// A value per property position, as an inserted object holds them.
    var slots: Slots

    init(template: BatchInsertTemplate, index: Int) {
        self.index = index
        self.template = template
        self.slots = template.initialSlots
    }

    /// Sets an attribute, a to-one relationship to a `ManagedObject` (or nil), or a to-many
    /// whose links the store keeps apart from rows to a `[ManagedObject]` (nil: none), as
    /// `setObjects(_:forKey:)` does.
    ///
    /// - Throws: `ObjectAccessError` for an unknown key, a value of the wrong type, a
    ///   derived attribute, or a relationship a batch row cannot set.
    public mutating func setValue(_ value: Any?, forKey key: String) throws {
        let position = try settablePosition(of: key)
        switch template.schema.properties[position] {
        case .attribute(let attribute):
            do { slots[position] = .value(try AttributeValue.coerce(value, to: attribute)) } catch {
                throw refusal(key, error.reason)
            }
        case .relationship(let relationship):
            if let refusal = template.relationshipRefusals[position] { throw self.refusal(key, refusal) }
            if relationship.isToMany {
                guard let objects = value as? [ManagedObject] ?? (value == nil ? [] : nil) else {
                    throw refusal(key, "expected [ManagedObject], got \(type(of: value!))")
                }
                try setObjects(objects, forKey: key)
                return
            }
            guard value == nil || value is ManagedObject else {
                throw refusal(key, "expected a ManagedObject, got \(type(of: value!))")
            }
            try setObject(value as? ManagedObject, forKey: key)
        }
    }

    /// Sets an attribute to a value the compiler checked for `Sendable`: the setter for a
    /// transformable attribute's app value, which `setValue(_:forKey:)` takes only when its
    /// type shows it is Sendable (see `ManagedObject.setValue(_:forKey:)`). For any other
    /// property, the same as `setValue(_:forKey:)`.
    ///
    /// - Throws: as `setValue(_:forKey:)`.
    public mutating func setTransformableValue<T: Sendable>(_ value: T?, forKey key: String) throws {
        let position = try settablePosition(of: key)
        guard case .attribute(let attribute) = template.schema.properties[position] else {
            return try setValue(value, forKey: key)
        }
        do { slots[position] = .value(try AttributeValue.coerce(sendable: value, to: attribute)) } catch {
            throw refusal(key, error.reason)
        }
    }

    /// Sets an attribute from a value of its own Swift type, without going through `Any`;
    /// any other pairing takes the coercing path of `setValue(_:forKey:)`.
    ///
    /// - Throws: as `setValue(_:forKey:)`.
    ///
    /// Inlinable, so that it is specialised for `T` in the caller's module: unspecialised,
    /// each call looked up `T?`'s metadata at run time.
    @inlinable
    public mutating func setAttribute<T: AttributeValueStorable>(_ value: T?, forKey key: String) throws {
        if try !setStoredValue(value.map(\.storedAttributeValue) ?? .null, of: T.storedAttributeType, forKey: key) {
            try setValue(value, forKey: key)
        }
    }

    /// Sets an attribute of `type` to `value`, as it is; false, setting nothing, when the
    /// attribute is of another type.
    @usableFromInline
    mutating func setStoredValue(_ value: AttributeValue, of type: AttributeType, forKey key: String) throws -> Bool {
        let position = try settablePosition(of: key)
        guard template.schema.plans[position].settableAttributeType == type else { return false }
        slots[position] = .value(value)
        return true
    }

    /// Sets a to-one relationship. The destination must be of the relationship's entity,
    /// belong to the context that runs the request, and be saved, or be inserted and saved
    /// by the save that writes the request (`save(inserting:)`); the last two are checked
    /// when the row is written, naming the row and key.
    ///
    /// - Throws: `ObjectAccessError` for an unknown key, a property that is not such a
    ///   to-one, or a destination of another entity.
    public mutating func setObject(_ object: ManagedObject?, forKey key: String) throws {
        let position = try settablePosition(of: key)
        guard case .relationship(let relationship) = template.schema.properties[position] else {
            throw refusal(key, "it is an attribute, not a relationship")
        }
        if let refusal = template.relationshipRefusals[position] { throw self.refusal(key, refusal) }
        if relationship.isToMany { throw refusal(key, "it is a to-many: set it with setObjects(_:forKey:)") }
        if let object, !object.schema.isKind(of: relationship.destinationEntityName) {
            throw refusal(key, "expected a \(relationship.destinationEntityName), got a \(object.schema.name)")
        }
        slots[position] = .toOne(object)
    }

    /// Sets a to-many relationship whose links the store keeps apart from rows: a
    /// many-to-many, or a to-many without an inverse, ordered or not. An ordered
    /// relationship keeps the order of `objects`; an empty list sets no links.
    ///
    /// Each destination must be as a to-one's is (see `setObject(_:forKey:)`): of the
    /// relationship's entity, of the context that runs the request, and saved or inserted
    /// by the save that writes the request. A list holds each destination once. The links
    /// are written after the row, and only when the row is: a row skipped for stored
    /// unique values (store-trump and rollback merging) links nothing. A row that may
    /// update a stored one (object-trump and overwrite merging) cannot set links, since
    /// the stored row keeps its own.
    ///
    /// A to-many kept in its destinations' rows (one whose inverse is a to-one) is set from
    /// that side; one whose inverse is ordered, or over whose inverse the destination
    /// derives a count or sum, needs objects.
    ///
    /// - Throws: `ObjectAccessError` naming the row and key for an unknown key, a property
    ///   that is not such a to-many, a destination of another entity or listed twice, or a
    ///   row that may update a stored one.
    public mutating func setObjects(_ objects: [ManagedObject], forKey key: String) throws {
        let position = try settablePosition(of: key)
        guard case .relationship(let relationship) = template.schema.properties[position] else {
            throw refusal(key, "it is an attribute, not a relationship")
        }
        if let refusal = template.relationshipRefusals[position] { throw self.refusal(key, refusal) }
        guard relationship.isToMany else { throw refusal(key, "it is a to-one: set it with setObject(_:forKey:)") }
        if !objects.isEmpty, let refusal = template.linkRefusal { throw self.refusal(key, refusal) }
        var seen = Set<ObjectIdentifier>(minimumCapacity: objects.count)
        for object in objects {
            guard object.schema.isKind(of: relationship.destinationEntityName) else {
                throw refusal(key, "expected \(relationship.destinationEntityName) objects, got a \(object.schema.name)")
            }
            guard seen.insert(ObjectIdentifier(object)).inserted else {
                throw refusal(key, "\(object.objectID) is listed twice: a to-many holds each object once")
            }
        }
        slots[position] = .toMany(objects)
    }

    /// The row's slots, leaving it empty: the caller's array is then the only reference,
    /// and writing derived values into it copies nothing.
    mutating func takeSlots() -> Slots {
        var taken = Slots()
        swap(&taken, &slots)
        return taken
    }

    private func settablePosition(of key: String) throws -> Int {
        let schema = template.schema
        guard let position = schema.propertyIndex[key] else {
            throw refusal(key, "\(schema.name) has no property named '\(key)'")
        }
        // The plan, not the description: copying a `SchemaProperty` per value costs more than setting it.
        if case .derivedAttribute = schema.plans[position].kind, case .attribute(let attribute) = schema.properties[position] {
            throw refusal(key, "it is derived from '\(attribute.derivationExpression ?? "")' and computed on save")
        }
        return position
    }

    private func refusal(_ key: String, _ reason: String) -> ObjectAccessError {
        ObjectAccessError(entity: template.schema.name, key: key, reason: "\(reason) (\(template.rowName(index)))")
    }
}

/// What the rows of one batch insert share: the entity, its initial slots, and why each
/// relationship a row cannot set is refused.
final class BatchInsertTemplate {
    let schema: EntitySchema
    /// An inserted object's slots: default values, no destinations.
    let initialSlots: Slots
    /// For each relationship position a row cannot set, the reason. The writer adds the
    /// to-manys its store keeps in rows before any row is filled.
    var relationshipRefusals: [Int: String]
    /// Why no row may set to-many links (rows that may update stored ones), or nil.
    var linkRefusal: String?

    init(schema: EntitySchema, model: ManagedObjectModel) {
        self.schema = schema
        initialSlots = Slots(storingEach: schema.plans.map(\.initialSlot))
        var refusals: [Int: String] = [:]
        for (position, property) in schema.properties.enumerated() {
            guard case .relationship(let relationship) = property else { continue }
            refusals[position] = Self.refusal(of: relationship, model: model)
        }
        relationshipRefusals = refusals
    }

    /// "row 17 of the Book batch insert".
    func rowName(_ index: Int) -> String { "row \(index) of the \(schema.name) batch insert" }

    /// Why a batch row cannot set `relationship`, or nil when it can. A to-one kept in the
    /// row's own column is written with the row; a to-many whose links the store keeps
    /// apart (a many-to-many, or one without an inverse) is written as links after it. In
    /// both, the inverse (if any) must be an unordered to-many: an ordered inverse keeps
    /// positions, and a to-one inverse moves a destination away from its previous holder,
    /// both of which need the objects. A to-many whose inverse is a to-one is kept in the
    /// destinations' rows and set from there; a to-many over whose inverse the destination
    /// derives a count or sum would leave that value stale.
    private static func refusal(of relationship: RelationshipDescription, model: ManagedObjectModel) -> String? {
        if relationship.isTransient { return "it is transient: a batch insert writes only stored properties" }
        guard let inverseName = relationship.inverseName else { return nil }
        guard let destination = model.schema(for: relationship.destinationEntityName),
            let inverse = destination.relationship(named: inverseName)
        else { return nil }
        if relationship.isToMany {
            if !inverse.isToMany {
                return "a batch insert sets no to-many relationships: "
                    + "set its inverse '\(inverseName)' on the destination's rows, or insert objects"
            }
            let aggregated = destination.hierarchyNames.contains { name in
                model.schema(for: name)?.derivations.contains { $0.derivation.aggregatedRelationship == inverseName } ?? false
            }
            if aggregated {
                return "\(destination.name) derives a count or sum over its inverse '\(inverseName)', "
                    + "which a batch insert cannot keep up to date: insert objects"
            }
        }
        if !inverse.isToMany { return "its inverse '\(inverseName)' is a to-one, which a batch insert cannot keep in step: insert objects" }
        if inverse.isOrdered { return "its inverse '\(inverseName)' is ordered, which a batch insert cannot keep in step: insert objects" }
        return nil
    }
}
