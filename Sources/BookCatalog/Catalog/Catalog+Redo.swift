import Foundation
import Persistence

// `books redo`: the last undo, reversed. An undo's saves share its context name (`undo 12
// 13`); a redo reverses them all, as the undo reversed its command (in chunks, one
// transaction of the store, see `UndoRun`), with the same checks (nothing changed since,
// every value kept), under the author `books redo` and the context name `redo <the undo's
// transactions>`. Undos wait to be redone newest first, as long as no other command changed
// the catalogue after them; a redo is itself a command, which the next undo takes back.
extension Catalog {
    /// The author of a redo's saves.
    static let redoAuthor = historyAuthor(command: "redo")

    /// Redoes the last undo that is waiting: all of it, or nothing.
    ///
    /// - Parameters:
    ///   - shouldStop: asked between transactions and saves; true stops the redo, which
    ///     throws ``CatalogUndoError/interrupted(command:)`` with nothing changed.
    ///   - progress: told `(done, total)` as the redo reads and reverses the undo's
    ///     transactions.
    /// - Throws: ``CatalogUndoError`` (`.nothingToRedo`, or why the undo cannot be reversed:
    ///   the catalogue is then unchanged); ``CatalogHistoryUnavailableError`` for a store
    ///   Core Data wrote; store errors as a save throws them.
    public func redo(
        shouldStop: @escaping () -> Bool = { false },
        progress: @escaping (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws -> UndoneCommand {
        try requireHistory(for: "redo", needsOldValues: true)
        return try context.performAtomicSaves {
            guard let history = try HistoryReader(context: context) else { throw CatalogUndoError.nothingToRedo }
            let transactions = history.transactions
            var redone = Set<Int64>()
            for transaction in transactions where transaction.author == Self.redoAuthor {
                redone.formUnion(Self.redoneNumbers(transaction.contextName))
            }
            // The newest undo not redone, with nothing but undos and redos after it.
            var waiting: PersistentHistoryTransaction?
            for transaction in transactions.reversed() {
                if transaction.author == Self.redoAuthor { continue }
                guard transaction.author == Self.undoAuthor else { break }
                if !redone.contains(transaction.transactionNumber) {
                    waiting = transaction
                    break
                }
            }
            guard let undone = waiting else { throw CatalogUndoError.nothingToRedo }
            let run = transactions.filter { $0.author == Self.undoAuthor && $0.contextName == undone.contextName }
            let numbers = run.map(\.transactionNumber)
            let original = Self.undoneNumbers(undone.contextName)
            let command = transactions.first { original.contains($0.transactionNumber) }?.author
                .map(QuotedText.forDisplay) ?? "books"
            let name = "\(command) (\(Self.transactionList(original)))"
            var redo = try UndoRun(
                catalog: self, command: name, history: history, run: run, shouldStop: shouldStop, progress: progress)
            try redo.checkNothingChangedSince(live: transactions)
            try redo.checkReversible()
            context.transactionAuthor = Self.redoAuthor
            context.name = "redo " + numbers.map(String.init).joined(separator: " ")
            try redo.reverse()
            return UndoneCommand(command: name, counts: redo.counts)
        }
    }

    /// The transaction numbers a redo's context name lists.
    static func redoneNumbers(_ name: String?) -> [Int64] {
        guard let name, name.hasPrefix("redo ") else { return [] }
        return name.dropFirst(5).split(separator: " ").compactMap { Int64($0) }
    }
}
