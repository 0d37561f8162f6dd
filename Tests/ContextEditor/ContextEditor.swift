import Foundation
import Persistence

/// One process's view context on a store of books, and the book it holds, obeying one
/// command per line and answering one line: what the tests of two processes editing one
/// book drive (`TwoProcessEditingTests`), and of one process catching up with another's
/// saves through the persistent history (`PersistentHistoryProcessTests`).
///
/// | command | does | answers |
/// |---|---|---|
/// | `open PATH` | opens (or creates) the store; PATH may be a `postgresql://` URL | `ok` |
/// | `track PATH` | opens (or creates) the store with persistent history tracking on | `ok` |
/// | `author NAME` | sets the context's `transactionAuthor` | `ok` |
/// | `mark` | remembers the store's current history token | `ok` |
/// | `catchUp` | fetches the history after the remembered token, merges it, and remembers its last token | the changes, see `describe(_:)` |
/// | `policy NAME` | sets the merge policy: `error`, `storeTrump`, `objectTrump`, `overwrite`, `rollback` | `ok` |
/// | `insert ISBN` | inserts a book and holds it | `ok` |
/// | `fetch ISBN` | fetches the book and holds it | `ok`, or `none` |
/// | `set KEY VALUE` | sets `title`, `notes` or `shelf` of the held book (the rest of the line) | `ok` |
/// | `delete` | deletes the held book | `ok` |
/// | `refreshAll` | `refreshAllObjects()` | `ok` |
/// | `reset` | `reset()`: forgets every object and unsaved change, and the held book | `ok` |
/// | `save` | saves | `ok`, or `conflict: ` and the `MergeConflictError` on one line |
/// | `show` | the held book's values | `isbn=… title=… notes=… shelf=…`, or `inaccessible` once it left the context |
///
/// Anything that fails answers `error: ` and what went wrong.
final class ContextEditor {
    /// Books with a unique ISBN, a title, notes and a shelf.
    static let model = ManagedObjectModel {
        Entity("Book") {
            Attribute("isbn", .string, preservesValueOnDeletion: true)
            Attribute("title", .string, preservesValueOnDeletion: true)
            Attribute("notes", .string)
            Attribute("shelf", .string)
            UniquenessConstraint("isbn")
        }
    }

    private var container: PersistentContainer?
    private var book: ManagedObject?
    /// The place in the history up to which this process has caught up.
    private var token: PersistentHistoryToken?

    /// Runs one command line and returns the answer.
    func handle(_ line: String) -> String {
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard let command = words.first else { return "error: empty command" }
        let argument = words.count > 1 ? words[1] : ""
        do {
            return try run(command, argument)
        } catch let conflict as MergeConflictError {
            return "conflict: " + oneLine(conflict.description)
        } catch {
            return "error: " + oneLine("\(error)")
        }
    }

    private func run(_ command: String, _ argument: String) throws -> String {
        if command == "open" {
            container = try PersistentContainer(model: Self.model, storeURL: Self.storeURL(argument))
            return "ok"
        }
        if command == "track" {
            container = try PersistentContainer(
                model: Self.model, storeURL: Self.storeURL(argument), tracksPersistentHistory: true)
            return "ok"
        }
        guard let context = container?.viewContext else { return "error: no store is open" }
        switch command {
        case "policy":
            guard let policy = Self.policies[argument] else { return "error: no policy '\(argument)'" }
            context.mergePolicy = policy
        case "insert":
            let book = try context.insertObject(forEntityName: "Book")
            book["isbn"] = argument
            self.book = book
        case "fetch":
            let request = FetchRequest(entityName: "Book", predicate: try FetchPredicate("isbn == %@", argument))
            guard let book = try context.fetch(request).first else { return "none" }
            self.book = book
        case "set", "delete", "show":
            guard let book else { return "error: no book is held" }
            return try edit(book, command, argument, in: context)
        case "author":
            context.transactionAuthor = argument
        case "mark":
            token = try context.persistentStoreCoordinator.currentPersistentHistoryToken()
        case "catchUp":
            let transactions = try context.fetchHistory(after: token)
            context.mergeChanges(fromHistory: transactions)
            token = transactions.last?.token ?? token
            return transactions.map(describe).joined(separator: " | ")
        case "refreshAll":
            context.refreshAllObjects()
        case "reset":
            context.reset()
            book = nil
        case "save":
            try context.save()
        default:
            return "error: unknown command '\(command)'"
        }
        return "ok"
    }

    private func edit(
        _ book: ManagedObject, _ command: String, _ argument: String, in context: ManagedObjectContext
    ) throws -> String {
        switch command {
        case "set":
            let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
            guard let key = parts.first, Self.editable.contains(key) else { return "error: set title, notes or shelf" }
            try book.setValue(parts.count > 1 ? parts[1] : "", forKey: key)
        case "delete":
            context.delete(book)
        default:
            // Read first: reading a fault whose row is gone takes it out of the context.
            let values = (["isbn"] + Self.editable).map { "\($0)=\(book[$0] as? String ?? "nil")" }
            return book.managedObjectContext === context ? values.joined(separator: " ") : "inaccessible"
        }
        return "ok"
    }

    /// A history transaction on one line: `author: insert Book/p2; update Book/p1 [notes,title];
    /// delete Book/p3 {isbn=3,title=Gone}`.
    private func describe(_ transaction: PersistentHistoryTransaction) -> String {
        let changes = transaction.changes.map { change in
            let id = change.changedObjectID.description
            switch change.changeType {
            case .insert:
                return "insert \(id)"
            case .update:
                return "update \(id) [\((change.updatedProperties ?? []).sorted().joined(separator: ","))]"
            case .delete:
                let values = (change.tombstone ?? [:]).sorted { $0.key < $1.key }.map { key, value in
                    if case .string(let text) = value { return "\(key)=\(text)" }
                    return "\(key)=\(value)"
                }
                return "delete \(id) {\(values.joined(separator: ","))}"
            }
        }
        return "\(transaction.author ?? "nil"): " + changes.joined(separator: "; ")
    }

    /// A store's path, or a server store's URL (a build with the `PostgreSQL` trait opens it).
    private static func storeURL(_ text: String) -> URL {
        if ServerStoreURL.isServer(text), let url = URL(string: text) { return url }
        return URL(fileURLWithPath: text)
    }

    /// The attributes `set` changes.
    private static let editable = ["title", "notes", "shelf"]

    /// The merge policies by the names the commands use.
    private static let policies: [String: MergePolicy] = [
        "error": .error, "storeTrump": .mergeByPropertyStoreTrump, "objectTrump": .mergeByPropertyObjectTrump,
        "overwrite": .overwrite, "rollback": .rollback,
    ]

    /// `text` with its lines joined by " | ", so that an answer stays one line.
    private func oneLine(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " | ")
    }
}
