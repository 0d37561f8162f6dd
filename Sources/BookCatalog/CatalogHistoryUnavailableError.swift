import Foundation
import Persistence

/// `books history` or `books undo` on a catalogue in a store Core Data wrote: such a store
/// keeps no history of the commands that changed it (Core Data's own history, where a store
/// has one, is read-only here and keeps no old values to undo with), so there is nothing to
/// show or undo. An empty answer would read as "nothing changed"; the command is refused
/// instead, the store untouched.
public struct CatalogHistoryUnavailableError: Error, Sendable, CustomStringConvertible {
    /// The store file.
    public var path: String
    /// What the command would have done: "show" or "undo".
    public var action: String

    public var description: String {
        "\(path) is a store Core Data wrote, which keeps no history of the commands that changed it: "
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
    /// history.
    ///
    /// - Throws: ``CatalogHistoryUnavailableError`` for a store Core Data wrote.
    func requireHistory(for action: String) throws {
        guard isInCoreDataStore else { return }
        throw CatalogHistoryUnavailableError(
            path: container.storeURL?.path ?? "The catalogue", action: action)
    }
}
