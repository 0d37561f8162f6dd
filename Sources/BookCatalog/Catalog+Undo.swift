import Foundation
import Persistence

/// Why `books undo` changed nothing.
public enum CatalogUndoError: Error, Sendable, CustomStringConvertible {
    /// No command of this release has changed the catalogue, or every one was undone.
    case nothingToUndo
    /// A book the command changed was changed again since by another command.
    case changedSince(command: String, book: String, by: String)
    /// The history did not keep the values the command replaced (a command of an earlier
    /// release, or a seed that updated books already there).
    case valuesNotKept(command: String)
    /// An object the command changed is gone: deleted since, or deleted and brought back by
    /// an undo (which makes it a new object, that the command's history does not name).
    case deletedSince(command: String, object: String)

    public var description: String {
        switch self {
        case .nothingToUndo:
            return "Nothing to undo: no command has changed the catalogue since it began keeping its history."
        case .changedSince(let command, let book, let by):
            return "Cannot undo \(command): \(book) was changed since by \(by); nothing was changed."
        case .valuesNotKept(let command):
            return "Cannot undo \(command): its history does not keep the values it replaced; nothing was changed."
        case .deletedSince(let command, let object):
            return "Cannot undo \(command): \(object) it changed was deleted since (an undo of a delete brings back "
                + "a new copy); nothing was changed."
        }
    }
}

/// What `books undo` undid.
public struct UndoneCommand: Sendable {
    /// The command, as the history names it, with its transactions: `books edit (#12)`.
    public var command: String
    /// How many books the undo inserted (deleted ones back), updated and deleted (added ones).
    public var counts: [PersistentHistoryChangeType: Int]
}

// `books undo`, built on the persistent history: the last command that changed the
// catalogue is found by its transactions' author (`books edit`) and the run its saves share
// (the context's name), and each of its changes is reversed from the values the history
// kept (`PersistentHistoryChange.previousValues`, this library's addition to Core Data's
// history): an inserted object is deleted, an update's old values are set back, a deleted
// object is inserted again with the values it had (its to-many links, such as tags, are not
// kept). All of it is one save, however many books the command changed.
//
// An undo is itself a command in the history (`books undo`, its context named after the
// transactions it undid). It is not undone by the next `undo`, which walks further back:
// `undo` twice undoes the last two commands; there is no redo.
extension Catalog {
    /// The author of an undo's saves.
    static let undoAuthor = historyAuthor(command: "undo")

    /// The context name an undo saves under: `undo 12 13`, the transactions it reverses.
    static func undoName(_ numbers: [Int64]) -> String {
        "undo " + numbers.map(String.init).joined(separator: " ")
    }

    /// The transaction numbers an undo's context name lists.
    static func undoneNumbers(_ name: String?) -> [Int64] {
        guard let name, name.hasPrefix("undo ") else { return [] }
        return name.dropFirst(5).split(separator: " ").compactMap { Int64($0) }
    }

    /// Undoes the last command that changed the catalogue and was not undone yet, in one save.
    ///
    /// - Throws: ``CatalogUndoError`` when there is nothing to undo, when a book it changed
    ///   was changed since by another command, or when the history lacks the values to put
    ///   back: the catalogue is then unchanged. ``CatalogHistoryUnavailableError`` for a
    ///   store Core Data wrote. Store errors as a save throws them.
    public func undo() throws -> UndoneCommand {
        try requireHistory(for: "undo")
        let transactions: [PersistentHistoryTransaction]
        do {
            transactions = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        } catch PersistentHistoryError.notTracked {
            throw CatalogUndoError.nothingToUndo
        }
        // Undos, and the transactions they reversed, are out of the picture.
        var cancelled = Set<Int64>()
        for transaction in transactions where transaction.author == Self.undoAuthor {
            cancelled.insert(transaction.transactionNumber)
            cancelled.formUnion(Self.undoneNumbers(transaction.contextName))
        }
        let live = transactions.filter { !cancelled.contains($0.transactionNumber) }
        guard let last = live.last(where: { ($0.author ?? "").hasPrefix("books ") }) else {
            throw CatalogUndoError.nothingToUndo
        }
        // Every save of the same run of the command (a seed saves in batches).
        let run = last.contextName == nil
            ? [last] : live.filter { $0.author == last.author && $0.contextName == last.contextName }
        let numbers = run.map(\.transactionNumber)
        let name = "\(last.author ?? "books") (#\(numbers.map(String.init).joined(separator: ", #")))"
        let changes = run.flatMap(\.changes).filter(Self.matters)
        try checkNothingChangedSince(changes, run: Set(numbers), live: live, command: name)
        for change in changes where change.changeType != .insert && change.previousValues == nil {
            throw CatalogUndoError.valuesNotKept(command: name)
        }
        var counts: [PersistentHistoryChangeType: Int] = [:]
        do {
            try reverse(changes.reversed(), of: name, counts: &counts)
            context.transactionAuthor = Self.undoAuthor
            context.name = Self.undoName(numbers)
            try context.save()
        } catch {
            context.rollback()
            throw error
        }
        return UndoneCommand(command: name, counts: counts)
    }

    /// Whether a change is one to undo: an update that only changed to-many links (an
    /// author's list of books, following a book's author) is reversed with the book.
    private static func matters(_ change: PersistentHistoryChange) -> Bool {
        change.changeType != .update || change.previousValues.map { !$0.isEmpty } ?? true
    }

    /// Refuses when a later command, not undone, changed an object the command changed.
    private func checkNothingChangedSince(
        _ changes: [PersistentHistoryChange], run: Set<Int64>, live: [PersistentHistoryTransaction], command: String
    ) throws {
        let objects = Set(changes.map(\.changedObjectID))
        guard let first = run.min() else { return }
        for transaction in live where transaction.transactionNumber > first && !run.contains(transaction.transactionNumber) {
            for change in transaction.changes where Self.matters(change) && objects.contains(change.changedObjectID) {
                let by = "\(transaction.author ?? "another program") (#\(transaction.transactionNumber))"
                throw CatalogUndoError.changedSince(command: command, book: describe(change.changedObjectID), by: by)
            }
        }
    }

    /// A book as messages name it: its short ID and title, or what kind of object it is.
    private func describe(_ id: ObjectID) -> String {
        guard let book = try? context.existingObject(with: id) as? Book else {
            return id.entityName == "Book" ? "a book" : "an \(id.entityName.lowercased())"
        }
        return "\(ShortIDs.digits(of: book.uuid).prefix(ShortIDs.minimumDigits)) \"\(QuotedText.forMessage(book.title))\""
    }

    /// Reverses the changes, newest first, in the context (not saved).
    private func reverse(
        _ changes: some Sequence<PersistentHistoryChange>, of command: String,
        counts: inout [PersistentHistoryChangeType: Int]
    ) throws {
        var inserted: [ManagedObject] = []
        for change in changes {
            let isBook = change.changedObjectID.entityName == "Book"
            switch change.changeType {
            case .insert:
                // Deleted below, once the books that may still need it are known.
                if let object = try? context.existingObject(with: change.changedObjectID) { inserted.append(object) }
            case .update:
                guard let object = try? context.existingObject(with: change.changedObjectID) else {
                    throw CatalogUndoError.deletedSince(command: command, object: describe(change.changedObjectID))
                }
                try restore(change.previousValues ?? [:], to: object)
                if isBook { counts[.update, default: 0] += 1 }
            case .delete:
                let object = try context.insertObject(forEntityName: change.changedObjectID.entityName)
                try restore(change.previousValues ?? [:], to: object)
                if isBook { counts[.insert, default: 0] += 1 }
            }
        }
        // Books first; then an author or tag the command added, unless a book kept links it.
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

    /// Sets the previous values back: attributes (derived ones follow on save) and to-one
    /// relationships.
    private func restore(_ values: [String: PersistentHistoryValue], to object: ManagedObject) throws {
        let derived = Set(object.entity.attributes.filter(\.isDerived).map(\.name))
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where !derived.contains(name) {
            switch value {
            case .attribute(let attribute):
                try object.setValue(attribute.anyValue, forKey: name)
            case .object(let id):
                try object.setValue(id.flatMap { try? context.existingObject(with: $0) }, forKey: name)
            }
        }
    }
}
