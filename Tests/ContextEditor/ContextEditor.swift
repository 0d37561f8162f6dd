import Foundation
import Persistence

/// One process's view context on a store of books, and the book it holds, obeying one
/// command per line and answering one line: what the tests of two processes editing one
/// book drive (`TwoProcessEditingTests`).
///
/// | command | does | answers |
/// |---|---|---|
/// | `open PATH` | opens (or creates) the store | `ok` |
/// | `policy NAME` | sets the merge policy: `error`, `storeTrump`, `objectTrump`, `overwrite`, `rollback` | `ok` |
/// | `insert ISBN` | inserts a book and holds it | `ok` |
/// | `fetch ISBN` | fetches the book and holds it | `ok`, or `none` |
/// | `set KEY VALUE` | sets `title`, `notes` or `shelf` of the held book (the rest of the line) | `ok` |
/// | `delete` | deletes the held book | `ok` |
/// | `refreshAll` | `refreshAllObjects()` | `ok` |
/// | `save` | saves | `ok`, or `conflict: ` and the `MergeConflictError` on one line |
/// | `show` | the held book's values | `isbn=… title=… notes=… shelf=…`, or `inaccessible` once it left the context |
///
/// Anything that fails answers `error: ` and what went wrong.
final class ContextEditor {
    /// Books with a unique ISBN, a title, notes and a shelf.
    static let model = ManagedObjectModel {
        Entity("Book") {
            Attribute("isbn", .string)
            Attribute("title", .string)
            Attribute("notes", .string)
            Attribute("shelf", .string)
            UniquenessConstraint("isbn")
        }
    }

    private var container: PersistentContainer?
    private var book: ManagedObject?

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
            container = try PersistentContainer(model: Self.model, storeURL: URL(fileURLWithPath: argument))
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
        case "refreshAll":
            context.refreshAllObjects()
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
