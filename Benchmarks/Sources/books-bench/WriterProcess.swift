import BookCatalog
import Foundation
import Persistence

/// One of the writers workload's child processes: `books-bench writer STORE WRITER EDITS
/// START`. It opens the store (a file path or a server URL), waits until the wall-clock
/// time START (seconds since 1970, so that every writer begins together), then makes
/// EDITS edits, each adding 1 to the price of one of the store's books, chosen so that the
/// writers' books overlap. Each edit is a fresh read and a save with optimistic locking
/// (merge policy `.error`): a save that conflicts is counted, thrown away and made again
/// on fresh values, so that no increment is lost.
///
/// It prints one line, `saves conflicts began ended` (the times as seconds since 1970),
/// and exits 0; anything else that fails goes to stderr with exit status 1.
enum WriterProcess {
    static let command = "writer"

    static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count == 4, let writer = Int(arguments[1]), let edits = Int(arguments[2]),
            let start = Double(arguments[3])
        else {
            FileHandle.standardError.write(Data("usage: books-bench writer STORE WRITER EDITS START\n".utf8))
            return 64
        }
        do {
            let report = try run(store: storeURL(arguments[0]), writer: writer, edits: edits, start: start)
            print("\(report.saves) \(report.conflicts) \(report.began) \(report.ended)")
            return 0
        } catch {
            FileHandle.standardError.write(Data("writer \(writer): \(error)\n".utf8))
            return 1
        }
    }

    /// A store's path or server URL as the URL a container opens.
    static func storeURL(_ text: String) -> URL {
        ServerStoreURL.isServer(text) ? URL(string: text) ?? URL(fileURLWithPath: text) : URL(fileURLWithPath: text)
    }

    static func run(store: URL, writer: Int, edits: Int, start: Double) throws
        -> (saves: Int, conflicts: Int, began: Double, ended: Double)
    {
        let container = try PersistenceSide.open(url: store)
        defer { try? container.persistentStoreCoordinator.close() }
        let context = container.viewContext
        context.mergePolicy = .error
        let books = try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")]))
        let ids = books.map(\.objectID)
        guard !ids.isEmpty else { throw ChildProcessError(description: "the store has no books to edit") }
        Thread.sleep(until: Date(timeIntervalSince1970: start))
        let began = Date().timeIntervalSince1970
        var saves = 0
        var conflicts = 0
        for edit in 0..<edits {
            // Writer w edits books w, w+1, …: every book is edited by every writer.
            let id = ids[(writer + edit) % ids.count]
            while true {
                context.reset()
                guard let book = try context.existingObject(with: id) as? Book else {
                    throw ChildProcessError(description: "\(id) is not a Book")
                }
                book.price = (book.price ?? 0) + 1
                do {
                    try context.save()
                    saves += 1
                    break
                } catch is MergeConflictError {
                    conflicts += 1
                }
            }
        }
        return (saves, conflicts, began, Date().timeIntervalSince1970)
    }
}
