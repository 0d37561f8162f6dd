import Foundation
import Persistence

/// Why `books undo` changed nothing.
public enum CatalogUndoError: Error, Sendable, CustomStringConvertible {
    /// No command of this release has changed the catalogue, or every one was undone.
    case nothingToUndo
    /// No undo is waiting to be redone: none was made, each was redone, or a command changed
    /// the catalogue after the last one.
    case nothingToRedo
    /// A book the command changed was changed again since by another command.
    case changedSince(command: String, book: String, by: String)
    /// The history did not keep the values the command replaced (a command of an earlier
    /// release, or a seed that updated books already there).
    case valuesNotKept(command: String)
    /// The history did not keep the value a property of an object had before the command
    /// (a to-many relationship recorded by an earlier release, or by a store that keeps none).
    case valueNotKept(command: String, object: String, property: String)
    /// An object the command changed is gone, and no object now is the same one (found by
    /// its uniqueness constraint's values, such as a book's UUID).
    case deletedSince(command: String, object: String)
    /// A value the history keeps is one the catalogue refuses (another program wrote it
    /// into the history).
    case refusedValue(command: String, object: String, property: String, reason: String)
    /// Asked to stop (`shouldStop` returned true) before the undo or redo of the command
    /// was done: what it had saved was rolled back.
    case interrupted(command: String)

    public var description: String {
        switch self {
        case .nothingToUndo:
            return "Nothing to undo: no command has changed the catalogue since it began keeping its history."
        case .nothingToRedo:
            return "Nothing to redo: no undo is waiting (a command that changed the catalogue since the last undo ends what can be redone)."
        case .changedSince(let command, let book, let by):
            return "Cannot undo \(command): \(book) was changed since by \(by); nothing was changed."
        case .valuesNotKept(let command):
            return "Cannot undo \(command): its history does not keep the values it replaced; nothing was changed."
        case .valueNotKept(let command, let object, let property):
            return "Cannot undo \(command): its history does not keep the \(property) \(object) had before; "
                + "nothing was changed."
        case .deletedSince(let command, let object):
            return "Cannot undo \(command): \(object) it changed was deleted since and is not in the catalogue; "
                + "nothing was changed."
        case .refusedValue(let command, let object, let property, let reason):
            return "Cannot undo \(command): the history's \(property) of \(object) is refused (\(reason)); "
                + "nothing was changed."
        case .interrupted(let command):
            return "Stopped before \(command) was reversed; nothing was changed."
        }
    }
}

/// What `books undo` undid.
public struct UndoneCommand: Sendable {
    /// The command, as the history names it, with its transactions: `books edit (#12)`,
    /// `books seed (#1–#157, 157 transactions)`; its name escaped as store text is.
    public var command: String
    /// How many books the undo inserted (deleted ones back), updated and deleted (added ones).
    public var counts: [PersistentHistoryChangeType: Int]
}

// `books undo`, built on the persistent history: the last command that changed the
// catalogue is found by its transactions' author (`books edit`) and the run its saves share
// (the context's name), and each of its changes is reversed from the values the history
// kept (`PersistentHistoryChange.previousValues`, this library's addition to Core Data's
// history): an inserted object is deleted, an update's old values are set back (a book's
// tags included), a deleted object is inserted again with the values and links it had. A
// change it cannot reverse fails the whole undo, naming the object and why.
//
// However many books the command changed, the undo lands whole or not at all, in bounded
// memory: the history is read a transaction at a time, and the reversal saves every few
// thousand objects and lets them go (see `UndoRun`), every save inside one
// `performAtomicSaves`, one write transaction of the store. An error, or the process killed
// part-way, leaves the catalogue exactly as it was; and since that transaction is taken
// before the history is read, no other writer can change the catalogue between the checks
// and the reversal.
//
// An object a change names may have been deleted and brought back since (an undo of a
// delete makes a new object, with a new key): objects of entities with a uniqueness
// constraint (a book's UUID, an author's or tag's name) are found again by the values a
// delete change of the history kept.
//
// An undo is itself a command in the history (`books undo`, its context named after the
// transactions it undid). It is not undone by the next `undo`, which walks further back:
// `undo` twice undoes the last two commands. `books redo` reverses the last undo (see
// `Catalog+Redo.swift`); a redo is a command like the others, which undo takes back.
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

    /// Transaction numbers as one short piece of a line: `#2`, `#2, #5`, or for more than
    /// three `#1–#157, 157 transactions` (first and last), however many a seed saved.
    public static func transactionList(_ numbers: [Int64]) -> String {
        guard numbers.count > 3, let first = numbers.min(), let last = numbers.max() else {
            return numbers.map { "#\($0)" }.joined(separator: ", ")
        }
        return "#\(first)–#\(last), \(numbers.count) transactions"
    }

    /// Undoes the last command that changed the catalogue and was not undone yet: all of it,
    /// or nothing.
    ///
    /// - Parameters:
    ///   - shouldStop: asked between transactions and saves; true stops the undo, which
    ///     throws ``CatalogUndoError/interrupted(command:)`` with nothing changed.
    ///   - progress: told `(done, total)` as the undo reads and reverses the command's
    ///     transactions (two checks and four passes over each).
    /// - Throws: ``CatalogUndoError`` when there is nothing to undo, when a book it changed
    ///   was changed since by another command, when the history lacks a value to put back,
    ///   when an object it changed cannot be found, or when a kept value is one the
    ///   catalogue refuses: the catalogue is then unchanged. ``CatalogHistoryUnavailableError``
    ///   for a store Core Data wrote. Store errors as a save throws them.
    public func undo(
        shouldStop: @escaping () -> Bool = { false },
        progress: @escaping (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws -> UndoneCommand {
        try requireHistory(for: "undo", needsOldValues: true)
        return try context.performAtomicSaves {
            guard let history = try HistoryReader(context: context) else { throw CatalogUndoError.nothingToUndo }
            let transactions = history.transactions
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
            let name = "\(QuotedText.forDisplay(last.author ?? "books")) (\(Self.transactionList(numbers)))"
            var undo = try UndoRun(
                catalog: self, command: name, history: history, run: run, shouldStop: shouldStop, progress: progress)
            try undo.checkNothingChangedSince(live: live)
            try undo.checkReversible()
            context.transactionAuthor = Self.undoAuthor
            context.name = Self.undoName(numbers)
            try undo.reverse()
            return UndoneCommand(command: name, counts: undo.counts)
        }
    }
}
