import Foundation
import Persistence

/// One `books undo` (or `books redo`) at work: checks that every change of the command can
/// be reversed, then reverses them in the catalogue's context, saving every `chunkSize`
/// objects and letting them go (`reset()`), inside the caller's `performAtomicSaves`, which
/// makes all the saves one transaction of the store. See `Catalog.undo()`.
///
/// Why in chunks, and in passes: an undo of a seed of 200,000 books in one save held every
/// book, every change of the history and every previous value at once (924 MB). Here the
/// history is read one transaction at a time (``HistoryReader``), and the context holds at
/// most a chunk of objects. Links may name any object of the command, so the reversal is
/// four passes over the command's transactions, newest first, each in chunks: the deleted
/// objects are inserted again with their attributes (their new IDs kept, by the IDs the
/// history names), then every update's and delete's previous values are set back (links
/// included: every object they name now exists), then the books the command inserted are
/// deleted, then the authors and tags it inserted that no book links any longer.
///
/// Nothing is skipped: a change whose previous values the history lacks, an object that
/// cannot be found (see ``UndoIdentities``), or a kept value the catalogue refuses fails the
/// whole undo, naming the object; the caller's transaction is then rolled back whole.
struct UndoRun {
    let catalog: Catalog
    /// The command as messages name it: `books edit (#12)`.
    let command: String
    let history: HistoryReader
    /// The transactions of the command, oldest first (without their changes).
    let run: [PersistentHistoryTransaction]
    let identities: UndoIdentities
    /// Asked before each transaction is read and each save: true stops the run.
    let shouldStop: () -> Bool
    /// Told how many of `totalSteps` are done, as each transaction of each pass is.
    let progress: (_ done: Int, _ total: Int) -> Void
    /// How many objects each save of the reversal holds: enough that a save's fixed cost
    /// is small beside its rows, few enough that the context stays a few MB.
    static let chunkSize = 1_000
    /// How many books were brought back (`.insert`), set back and removed.
    private(set) var counts: [PersistentHistoryChangeType: Int] = [:]
    /// The objects this undo inserted again: by the ID their delete change gave them, the
    /// ID the store gave them now (see ``ReinsertedKeys``).
    private let reinserted = ReinsertedKeys()
    /// How many objects each table's deletes of the command name, counted by
    /// `checkReversible`: room for the map of those inserted again.
    private var deletedCounts: [String: Int] = [:]
    /// The objects inserted again since the last save, by the ID their delete change gave
    /// them (their own IDs are temporary until it).
    private var fresh: [ObjectID: ManagedObject] = [:]
    /// The objects inserted again before an object they link to was: their links are set
    /// in the second pass.
    private var linksLeft = Set<ObjectID>()
    /// How many objects were changed since the last save.
    private var pending = 0
    private var steps = 0

    init(
        catalog: Catalog, command: String, history: HistoryReader, run: [PersistentHistoryTransaction],
        shouldStop: @escaping () -> Bool, progress: @escaping (_ done: Int, _ total: Int) -> Void
    ) throws {
        self.shouldStop = shouldStop
        self.catalog = catalog
        self.command = command
        self.history = history
        self.run = run
        self.progress = progress
        identities = UndoIdentities(history, excluding: Set(run.map(\.transactionNumber)))
    }

    private var context: ManagedObjectContext { catalog.context }

    /// Two checks and five passes, each a read of every transaction of the command.
    private var totalSteps: Int { run.count * 7 }

    /// Reads each transaction of the command, newest first, and calls `body` with its
    /// changes (in the order the transaction wrote them), telling the progress after each.
    private mutating func eachTransaction(_ body: (inout UndoRun, [PersistentHistoryChange]) throws -> Void) throws {
        for transaction in run.reversed() {
            try stopIfAsked()
            try body(&self, try history.changes(of: transaction))
            steps += 1
            progress(steps, totalSteps)
        }
    }

    // MARK: - Checks

    /// Refuses when a later transaction, not undone, changed an object the command changed
    /// (the same object under another ID included, see ``UndoIdentities``): the later
    /// changes' objects are gathered first (usually none), then the command's are compared
    /// with them, so that only the smaller side is held.
    mutating func checkNothingChangedSince(live: [PersistentHistoryTransaction]) throws {
        let numbers = Set(run.map(\.transactionNumber))
        guard let first = numbers.min() else { return }
        let later = live.filter { $0.transactionNumber > first && !numbers.contains($0.transactionNumber) }
        // Each later object's key, with the place of its first change.
        var laterKeys: [String: Int] = [:]
        var place = 0
        for transaction in later {
            for change in try history.changes(of: transaction) where counts(change) {
                let key = identities.key(for: change.changedObjectID, kept: kept(change))
                if laterKeys[key] == nil { laterKeys[key] = place }
                place += 1
            }
        }
        var firstClash: Int?
        try eachTransaction { undo, changes in
            guard !laterKeys.isEmpty else { return }
            for change in changes {
                let key = undo.identities.key(for: change.changedObjectID, kept: undo.kept(change))
                if let clash = laterKeys[key], clash < (firstClash ?? .max) { firstClash = clash }
            }
        }
        guard let firstClash else { return }
        place = 0
        for transaction in later {
            for change in try history.changes(of: transaction) where counts(change) {
                defer { place += 1 }
                guard place == firstClash else { continue }
                let author = transaction.author.map(QuotedText.forDisplay) ?? "another program"
                throw CatalogUndoError.changedSince(
                    command: command, book: describe(change.changedObjectID, kept: kept(change)),
                    by: "\(author) (#\(transaction.transactionNumber))")
            }
        }
    }

    /// Refuses when the history lacks a value that reversing a change needs: an update's
    /// previous value of each property it wrote, a delete's of each property the object had.
    mutating func checkReversible() throws {
        try eachTransaction { undo, changes in
            for change in changes where change.changeType != .insert {
                try undo.checkReversible(change)
                if change.changeType == .delete {
                    undo.deletedCounts[change.changedObjectID.rootName, default: 0] += 1
                }
            }
        }
    }

    private func checkReversible(_ change: PersistentHistoryChange) throws {
        guard let previous = change.previousValues else { throw CatalogUndoError.valuesNotKept(command: command) }
        guard let entity = context.model.entity(named: change.changedObjectID.entityName) else { return }
        let needed: [String]
        if change.changeType == .update {
            needed = (change.updatedProperties ?? []).sorted()
        } else {
            needed = entity.attributes.map(\.name) + entity.relationships.map(\.name)
        }
        for name in needed where previous[name] == nil && isNeeded(name, of: entity) {
            throw CatalogUndoError.valueNotKept(
                command: command, object: describe(change.changedObjectID, kept: kept(change)), property: name)
        }
    }

    // MARK: - Reversing

    /// Reverses the command's changes, newest first, in four passes (see the type's
    /// comment), saving whenever `chunkSize` objects are waiting and once at the end: a
    /// command of fewer objects is undone in one save, one transaction of the history, as
    /// before. The caller's `performAtomicSaves` makes the saves one transaction of the
    /// store. The context's author and name must be set.
    mutating func reverse() throws {
        reinserted.reserve(deletedCounts)
        // 1. Deleted objects, inserted again: first those the history kept no links of
        // (an author or a tag an undo removed once no book linked it), then the others with
        // their links too, so that a book comes back in one insert (one change of the
        // history, as a single save made it) rather than an insert and then an update.
        for withLinks in [false, true] {
            try eachTransaction { undo, changes in
                for change in changes.reversed() where change.changeType == .delete {
                    let id = change.changedObjectID, values = change.previousValues ?? [:]
                    guard Self.hasLinks(values) == withLinks, undo.fresh[id] == nil,
                        undo.reinserted.newID(for: id) == nil
                    else { continue }
                    let object = try undo.context.insertObject(forEntityName: id.entityName)
                    undo.fresh[id] = object
                    // A link to an object not back yet (one this pass inserts later) is set
                    // in the next pass, when every object is.
                    let links = withLinks && undo.canFindEveryLink(values)
                    if withLinks && !links { undo.linksLeft.insert(id) }
                    try undo.restore(values, to: object, id: id, links: links)
                    if id.entityName == "Book" { undo.counts[.insert, default: 0] += 1 }
                    try undo.saveWhenFull()
                }
            }
        }
        // 2. Previous values set back: an update's, and the links left of a deleted object.
        try eachTransaction { undo, changes in
            for change in changes.reversed() where change.changeType != .insert {
                let id = change.changedObjectID
                if change.changeType == .update {
                    try undo.restore(change.previousValues ?? [:], to: try undo.found(id), id: id, links: true)
                    if id.entityName == "Book" { undo.counts[.update, default: 0] += 1 }
                } else if undo.linksLeft.contains(id) {
                    try undo.restore(change.previousValues ?? [:], to: try undo.found(id), id: id, links: true, attributes: false)
                } else {
                    continue
                }
                try undo.saveWhenFull()
            }
        }
        // 3. Books the command inserted, deleted; 4. then an author or tag it inserted,
        // unless a book still links it.
        for books in [true, false] {
            try eachTransaction { undo, changes in
                for change in changes.reversed() where change.changeType == .insert
                    && (change.changedObjectID.entityName == "Book") == books
                {
                    let object = try undo.found(change.changedObjectID)
                    guard !object.isDeleted else { continue }
                    if books {
                        undo.counts[.delete, default: 0] += 1
                    } else if undo.isLinked(object) {
                        continue
                    }
                    undo.context.delete(object)
                    try undo.saveWhenFull()
                }
            }
        }
        try saveWhenFull(force: true)
    }

    /// Counts one more object changed, and once `chunkSize` are waiting (or at all, with
    /// `force`) saves them, keeps the IDs the store gave the objects inserted again, and
    /// lets every object go.
    private mutating func saveWhenFull(force: Bool = false) throws {
        if !force { pending += 1 }
        guard pending >= Self.chunkSize || force else { return }
        try stopIfAsked()
        try context.save()
        for (old, object) in fresh { reinserted.insert(old, as: object.objectID) }
        fresh.removeAll(keepingCapacity: true)
        context.reset()
        pending = 0
    }

    /// Whether kept values link to any object.
    private static func hasLinks(_ values: [String: PersistentHistoryValue]) -> Bool {
        values.values.contains { value in
            switch value {
            case .attribute: return false
            case .object(let destination): return destination != nil
            case .objects(let destinations): return !destinations.isEmpty
            }
        }
    }

    /// Whether every object the kept values link to is in the catalogue now (or inserted
    /// again by this undo).
    private func canFindEveryLink(_ values: [String: PersistentHistoryValue]) -> Bool {
        values.values.allSatisfy { value in
            let destinations: [ObjectID]
            switch value {
            case .attribute: return true
            case .object(let destination): destinations = destination.map { [$0] } ?? []
            case .objects(let objects): destinations = objects
            }
            return destinations.allSatisfy { (try? found($0)) != nil }
        }
    }

    /// Throws ``CatalogUndoError/interrupted(command:)`` when asked to stop: the caller's
    /// transaction is then rolled back whole.
    private func stopIfAsked() throws {
        if shouldStop() { throw CatalogUndoError.interrupted(command: command) }
    }

    /// Whether an object has a to-many that still holds an object not deleted.
    private func isLinked(_ object: ManagedObject) -> Bool {
        object.entity.relationships.contains { relationship in
            guard relationship.isToMany else { return false }
            let objects = object.value(forKey: relationship.name) as? [ManagedObject] ?? []
            return objects.contains { !$0.isDeleted }
        }
    }

    /// Sets the previous values back: attributes (derived ones follow on save, each checked
    /// against the catalogue's rules first) and relationships, their objects found again.
    private func restore(
        _ values: [String: PersistentHistoryValue], to object: ManagedObject, id: ObjectID, links: Bool,
        attributes: Bool = true
    ) throws {
        let derived = Set(object.entity.attributes.filter { $0.isDerived || $0.isTransient }.map(\.name))
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where !derived.contains(name) {
            do {
                switch value {
                case .attribute(let attribute):
                    guard attributes else { continue }
                    try Self.check(attribute, name, of: object.entityName)
                    try object.setValue(attribute, forKey: name)  // not `anyValue`: it keeps a transformable Sendable
                case .object(let destination):
                    guard links else { continue }
                    try object.setValue(try destination.map(found), forKey: name)
                case .objects(let destinations):
                    guard links else { continue }
                    try object.setValue(try destinations.map(found), forKey: name)
                }
            } catch let error as CatalogUndoError {
                throw error
            } catch {
                throw CatalogUndoError.refusedValue(
                    command: command, object: describe(id, kept: values), property: name,
                    reason: QuotedText.forMessage("\(error)"))
            }
        }
    }

    /// The object `id` names now (see ``UndoIdentities``), or one this undo inserted again.
    ///
    /// - Throws: ``CatalogUndoError/deletedSince(command:object:)`` when there is none.
    private func found(_ id: ObjectID) throws -> ManagedObject {
        if let object = fresh[id] { return object }
        if let now = reinserted.newID(for: id) { return try context.existingObject(with: now) }
        guard let object = try identities.object(for: id) else {
            throw CatalogUndoError.deletedSince(command: command, object: describe(id))
        }
        return object
    }

    // MARK: - Internals

    /// The values a delete change kept of its object (nil for another change).
    private func kept(_ change: PersistentHistoryChange) -> [String: PersistentHistoryValue]? {
        change.changeType == .delete ? change.previousValues : nil
    }

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
    func describe(_ id: ObjectID, kept: [String: PersistentHistoryValue]? = nil) -> String {
        let keptValues = kept ?? identities.deletedValues[id]
        // An object this undo inserts again is named as its delete change kept it (its
        // values may be half set back yet); any other as it is now.
        var object: ManagedObject?
        if let new = fresh[id] {
            object = keptValues == nil ? new : nil
        } else if let now = reinserted.newID(for: id) {
            object = keptValues == nil ? try? context.existingObject(with: now) : nil
        } else {
            object = (try? identities.object(for: id)) ?? nil
        }
        func text(_ name: String) -> String? {
            if let object { return object.value(forKey: name) as? String }
            guard case .attribute(let value)? = keptValues?[name] else { return nil }
            return value.anyValue as? String
        }
        switch id.entityName {
        case "Book":
            let uuid: UUID?
            if let object {
                uuid = object.value(forKey: "uuid") as? UUID
            } else if case .attribute(let value)? = keptValues?["uuid"] {
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
