import Foundation
import Persistence

/// `books history` or `books undo` on a catalogue in a store Core Data wrote without
/// persistent history: such a store keeps no history of the commands that changed it, so
/// there is nothing to show or undo; and `books undo` on one whose history Core Data records:
/// Core Data's history keeps no old values to put back. An empty answer would read as
/// "nothing changed"; the command is refused instead, the store untouched.
public struct CatalogHistoryUnavailableError: Error, Sendable, CustomStringConvertible {
    /// The store file.
    public var path: String
    /// What the command would have done: "show" or "undo".
    public var action: String
    /// Whether Core Data records the store's history (which `books history` shows, but
    /// which keeps no values to undo with).
    public var recordsHistory: Bool = false

    public var description: String {
        if recordsHistory {
            return "\(path) is a store Core Data wrote, whose history keeps no old values of what commands changed: "
                + "there is nothing to \(action) with."
        }
        return "\(path) is a store Core Data wrote, which keeps no history of the commands that changed it: "
            + "there is nothing to \(action)."
    }
}

extension Catalog {
    /// Whether the catalogue is kept in a store Core Data wrote (an app's `Books.sqlite`)
    /// rather than in the catalogue's own kind of store.
    public var isInCoreDataStore: Bool {
        (try? context.persistentStoreCoordinator.read { $0 is CoreDataStore }) ?? false
    }

    /// Refuses `action` (`history`'s "show", `undo`'s "undo") on a store that can keep no
    /// history: a store Core Data wrote, unless Core Data records its history there and the
    /// history is only to be shown (it keeps no old values to undo with).
    ///
    /// - Throws: ``CatalogHistoryUnavailableError`` for such a store.
    func requireHistory(for action: String, needsOldValues: Bool = false) throws {
        guard isInCoreDataStore else { return }
        let recordsHistory = (try? context.persistentStoreCoordinator.read { $0.tracksHistory }) ?? false
        if recordsHistory && !needsOldValues { return }
        throw CatalogHistoryUnavailableError(
            path: container.storeURL?.path ?? "The catalogue", action: action, recordsHistory: recordsHistory)
    }
}
