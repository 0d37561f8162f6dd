import Foundation
import Persistence

/// One `books undo` at work: checks that every change of the command can be reversed, then
/// reverses them in the catalogue's context (the caller saves). See `Catalog.undo()`.
///
/// Nothing is skipped: a change whose previous values the history lacks, an object that
/// cannot be found (see ``UndoIdentities``), or a kept value the catalogue refuses fails the
/// whole undo, naming the object.
struct UndoRun {
    let catalog: Catalog
    /// The command as messages name it: `books edit (#12)`.
    let command: String
    let identities: UndoIdentities
    /// How many books were brought back (`.insert`), set back and removed.
    private(set) var counts: [PersistentHistoryChangeType: Int] = [:]
    /// The objects this undo inserted again, by the ID their delete change gave them.
    private var reinserted: [ObjectID: ManagedObject] = [:]

    init(catalog: Catalog, command: String, identities: UndoIdentities) {
        self.catalog = catalog
        self.command = command
        self.identities = identities
    }

    private var context: ManagedObjectContext { catalog.context }

    // MARK: - Checks

    /// Refuses when a later transaction, not undone, changed an object the command changed
    /// (the same object under another ID included, see ``UndoIdentities``).
    func checkNothingChangedSince(
        _ changes: [PersistentHistoryChange], run: Set<Int64>, live: [PersistentHistoryTransaction]
    ) throws {
        guard let first = run.min() else { return }
        let later = live.filter { $0.transactionNumber > first && !run.contains($0.transactionNumber) }
            .flatMap { transaction in transaction.changes.filter(counts).map { (transaction, $0) } }
        guard !later.isEmpty else { return }
        let objects = Set(changes.map { identities.key(for: $0.changedObjectID) })
        for (transaction, change) in later where objects.contains(identities.key(for: change.changedObjectID)) {
            let author = transaction.author.map(QuotedText.forDisplay) ?? "another program"
            throw CatalogUndoError.changedSince(
                command: command, book: describe(change.changedObjectID), by: "\(author) (#\(transaction.transactionNumber))")
        }
    }

    /// Refuses when the history lacks a value that reversing a change needs: an update's
    /// previous value of each property it wrote, a delete's of each property the object had.
    func checkReversible(_ changes: [PersistentHistoryChange]) throws {
        for change in changes where change.changeType != .insert {
            guard let previous = change.previousValues else { throw CatalogUndoError.valuesNotKept(command: command) }
            guard let entity = context.model.entity(named: change.changedObjectID.entityName) else { continue }
            let needed: [String]
            if change.changeType == .update {
                needed = (change.updatedProperties ?? []).sorted()
            } else {
                needed = entity.attributes.map(\.name) + entity.relationships.map(\.name)
            }
            for name in needed where previous[name] == nil && isNeeded(name, of: entity) {
                throw CatalogUndoError.valueNotKept(
                    command: command, object: describe(change.changedObjectID), property: name)
            }
        }
    }

    // MARK: - Reversing

    /// Reverses the changes, newest first, in the context (not saved): deleted objects are
    /// inserted again first, so that every link can name them; then each change's previous
    /// values are set back; then the objects the command inserted are deleted.
    mutating func reverse(_ changes: [PersistentHistoryChange]) throws {
        for change in changes where change.changeType == .delete && reinserted[change.changedObjectID] == nil {
            reinserted[change.changedObjectID] = try context.insertObject(forEntityName: change.changedObjectID.entityName)
            if change.changedObjectID.entityName == "Book" { counts[.insert, default: 0] += 1 }
        }
        var inserted: [ManagedObject] = []
        for change in changes {
            let id = change.changedObjectID
            switch change.changeType {
            case .insert:
                // Deleted below, once the books that may still need it are known.
                inserted.append(try found(id))
            case .update:
                try restore(change.previousValues ?? [:], to: try found(id), id: id)
                if id.entityName == "Book" { counts[.update, default: 0] += 1 }
            case .delete:
                guard let object = reinserted[id] else { continue }
                try restore(change.previousValues ?? [:], to: object, id: id)
            }
        }
        // Books first; then an author or tag the command added, unless a book kept links it.
        var seen = Set<ObjectIdentifier>()
        inserted = inserted.filter { seen.insert(ObjectIdentifier($0)).inserted && !$0.isDeleted }
        for object in inserted where object.entityName == "Book" {
            context.delete(object)
            counts[.delete, default: 0] += 1
        }
        for object in inserted where object.entityName != "Book" {
            let linked = object.entity.relationships.contains { relationship in
                guard relationship.isToMany else { return false }
                let objects = object.value(forKey: relationship.name) as? [ManagedObject] ?? []
                return objects.contains { !$0.isDeleted }
            }
            if !linked { context.delete(object) }
        }
    }

    /// Sets the previous values back: attributes (derived ones follow on save, each checked
    /// against the catalogue's rules first) and relationships, their objects found again.
    private func restore(_ values: [String: PersistentHistoryValue], to object: ManagedObject, id: ObjectID) throws {
        let derived = Set(object.entity.attributes.filter { $0.isDerived || $0.isTransient }.map(\.name))
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where !derived.contains(name) {
            do {
                switch value {
                case .attribute(let attribute):
                    try Self.check(attribute, name, of: object.entityName)
                    try object.setValue(attribute, forKey: name)  // not `anyValue`: it keeps a transformable Sendable
                case .object(let destination):
                    try object.setValue(try destination.map(found), forKey: name)
                case .objects(let destinations):
                    try object.setValue(try destinations.map(found), forKey: name)
                }
            } catch let error as CatalogUndoError {
                throw error
            } catch {
                throw CatalogUndoError.refusedValue(
                    command: command, object: describe(id), property: name, reason: QuotedText.forMessage("\(error)"))
            }
        }
    }

    /// The object `id` names now (see ``UndoIdentities``), or one this undo inserted again.
    ///
    /// - Throws: ``CatalogUndoError/deletedSince(command:object:)`` when there is none.
    private func found(_ id: ObjectID) throws -> ManagedObject {
        if let object = reinserted[id] { return object }
        guard let object = try identities.object(for: id) else {
            throw CatalogUndoError.deletedSince(command: command, object: describe(id))
        }
        return object
    }

    // MARK: - Internals

    /// Whether a change that counts as changing its object: not an update that only changed
    /// to-many links another property keeps (an author's books, through each book's author).
    private func counts(_ change: PersistentHistoryChange) -> Bool {
        guard change.changeType == .update, let properties = change.updatedProperties, !properties.isEmpty,
            let entity = context.model.entity(named: change.changedObjectID.entityName)
        else { return true }
        return properties.contains { isNeeded($0, of: entity) }
    }

    /// Whether reversing a change of `name` needs its previous value: not for a derived or
    /// transient property, nor a to-many whose inverse is a to-one (set back with the
    /// other side's to-one) or the side of a many-to-many the history does not keep (set
    /// back with the other side, see `PersistentHistoryValue.keepsLinks`), nor a name the
    /// model no longer has.
    private func isNeeded(_ name: String, of entity: EntityDescription) -> Bool {
        if let attribute = entity.attributes.first(where: { $0.name == name }) {
            return !attribute.isDerived && !attribute.isTransient
        }
        guard let relationship = entity.relationships.first(where: { $0.name == name }) else { return false }
        guard !relationship.isTransient else { return false }
        guard relationship.isToMany, !relationship.isOrdered, let inverse = relationship.inverseName,
            let back = context.model.entity(named: relationship.destinationEntityName)?.relationships
                .first(where: { $0.name == inverse })
        else { return true }
        guard back.isToMany else { return false }
        return PersistentHistoryValue.keepsLinks(
            ofManyToMany: name, of: entity.name, inverse: inverse, destination: relationship.destinationEntityName)
    }

    /// Refuses a kept text the catalogue would refuse from a user: a title, an author's or a
    /// tag's name with control characters, empty or too long (the model's validation on
    /// save checks the rest).
    private static func check(_ value: AttributeValue, _ name: String, of entity: String) throws {
        guard let text = value.anyValue as? String else { return }
        let checked: String?
        switch (entity, name) {
        case ("Book", "title"): checked = try BookInput.title(text)
        case ("Author", "name"): checked = try BookInput.author(text)
        case ("Tag", "name"): checked = try BookInput.tag(text)
        case ("Book", "notes"): checked = try BookInput.notes(text)
        default: return
        }
        guard checked == text else {
            throw CatalogInputError(field: name, value: text, reason: "it has surrounding white space")
        }
    }

    /// An object as messages name it: a book by short ID and title, an author or tag by
    /// name (as it is now, or as its delete change kept it), store text escaped.
    func describe(_ id: ObjectID) -> String {
        let object = reinserted[id] == nil ? (try? identities.object(for: id)) ?? nil : nil
        func text(_ name: String) -> String? {
            if let object { return object.value(forKey: name) as? String }
            guard case .attribute(let value)? = identities.deletedValues[id]?[name] else { return nil }
            return value.anyValue as? String
        }
        switch id.entityName {
        case "Book":
            let uuid: UUID?
            if let object {
                uuid = object.value(forKey: "uuid") as? UUID
            } else if case .attribute(let value)? = identities.deletedValues[id]?["uuid"] {
                uuid = value.anyValue as? UUID
            } else {
                uuid = nil
            }
            guard let uuid, let title = text("title") else { return "a book" }
            return "\(ShortIDs.digits(of: uuid).prefix(ShortIDs.minimumDigits)) \(Self.quoted(title))"
        case "Author", "Tag":
            let noun = id.entityName.lowercased()
            return text("name").map { "the \(noun) \(Self.quoted($0))" } ?? "a \(noun)"
        default:
            return "an object of \(id.entityName)"
        }
    }

    /// Store text in double quotes, escaped when it holds control or bidirectional
    /// formatting characters (as `books list` shows such text).
    static func quoted(_ text: String) -> String {
        let shown = QuotedText.forDisplay(text)
        return shown.hasPrefix("\"") && shown != text ? shown : "\"\(text)\""
    }
}
