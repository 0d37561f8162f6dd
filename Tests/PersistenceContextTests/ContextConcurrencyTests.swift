import Dispatch
import Foundation
import PersistenceTestSupport
import Synchronization
import Testing

@testable import PersistenceContext
import Persistence

/// Contexts on threads: background contexts with their own queues, the view context on the
/// main queue, `perform` and `performAndWait`, one writer and many readers, merged saves.
/// Runs under ThreadSanitizer in CI (`.ci/run`).
@Suite struct ContextConcurrencyTests {
    /// Books with a title and a year (and notes): the optimistic-locking tests' model.
    static func model() -> ManagedObjectModel { OptimisticLockingTests.model() }

    static func container(_ store: TemporaryStore) throws -> PersistentContainer {
        try PersistentContainer(model: model(), storeURL: store.url)
    }

    /// Inserts a book with this title through a new background context; returns its ID.
    static func insertBook(_ title: String, in container: PersistentContainer) async throws -> ObjectID {
        try await container.performBackgroundTask { context in
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = title
            try context.save()
            return book.objectID
        }
    }

    // MARK: - Queues

    @Test func aBackgroundContextRunsItsBlocksOnItsOwnQueueAndHandsBackIDs() async throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let background = container.newBackgroundContext(name: "import")
        #expect(background.concurrencyType == .privateQueue)
        #expect(background.name == "import")
        let id = try await background.perform {
            let book = try background.insertObject(forEntityName: "Book")
            book["title"] = "Solaris"
            try background.save()
            return book.objectID
        }
        let title = try await container.viewContext.perform {
            try container.viewContext.existingObject(with: id)["title"] as? String
        }
        #expect(title == "Solaris")
    }

    @Test func theViewContextPerformsOnTheMainQueue() async throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        #expect(container.viewContext.concurrencyType == .mainQueue)
        // The main queue, the main actor's executor (which libdispatch on Linux may drain on
        // a thread other than the first), told by a mark only it carries.
        let mark = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: mark, value: 1)
        defer { DispatchQueue.main.setSpecific(key: mark, value: nil) }
        let onMain = await container.viewContext.perform { DispatchQueue.getSpecific(key: mark) == 1 }
        #expect(onMain)
    }

    @Test func performWithoutAwaitRunsTheBlockOnTheQueueLater() async throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let background = container.newBackgroundContext()
        let ran = await withCheckedContinuation { continuation in
            background.perform {
                continuation.resume(returning: (try? background.count(for: FetchRequest(entityName: "Book"))) != nil)
            }
        }
        #expect(ran, "the block ran on the context's queue, where the context may be used")
    }

    @Test func performAndWaitNestsAndReturnsTheBlocksValue() throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let background = container.newBackgroundContext()
        let count = try background.performAndWait {
            let book = try background.insertObject(forEntityName: "Book")
            book["title"] = "Nested"
            // Already on the queue: runs at once instead of waiting for itself.
            try background.performAndWait { try background.save() }
            return try background.count(for: FetchRequest(entityName: "Book"))
        }
        #expect(count == 1)
    }

    @Test func performRethrowsTheBlocksError() async throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let background = container.newBackgroundContext()
        await #expect(throws: ObjectAccessError.self) {
            try await background.perform { _ = try background.insertObject(forEntityName: "Nope") }
        }
    }

    // MARK: - Confinement

    @Test func aBackgroundContextUsedOutsideItsBlocksThrowsNamingIt() throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let background = container.newBackgroundContext(name: "import")
        do {
            _ = try background.fetch(FetchRequest(entityName: "Book"))
            Issue.record("a fetch off the context's queue succeeded")
        } catch let error as ContextConcurrencyError {
            #expect(error.description.contains("context 'import' (private queue)"))
            #expect(error.description.contains("fetch Book"))
        }
        #expect(throws: ContextConcurrencyError.self) { try background.save() }
        #expect(throws: ContextConcurrencyError.self) { try background.insertObject(forEntityName: "Book") }
    }

    @Test func theViewContextUsedInsideABackgroundBlockThrows() throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let view = container.viewContext
        let background = container.newBackgroundContext()
        let error = background.performAndWait { () -> (any Error)? in
            do {
                _ = try view.fetch(FetchRequest(entityName: "Book"))
                return nil
            } catch { return error }
        }
        #expect(error is ContextConcurrencyError)
    }

    @Test func changeTrackingFromAnotherQueueRunsOnTheContextsQueue() throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let background = container.newBackgroundContext()
        // Objects are not Sendable: crossing queues with one is what Swift 6 refuses at
        // compile time, so it is done here through an unchecked box, on purpose.
        let box = try background.performAndWait { UncheckedBox(try background.insertObject(forEntityName: "Book")) }
        box.value["title"] = "set off the queue"
        #expect(background.hasChanges)
        try background.performAndWait { try background.save() }
        #expect(try Self.titles(in: container) == ["set off the queue"])
    }

    @Test func anObjectWhoseContextIsGoneRefusesChangesNamingIt() throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let object: ManagedObject = try {
            let context = container.newBackgroundContext(name: "short-lived")
            return try context.performAndWait {
                let book = try context.insertObject(forEntityName: "Book")
                book["title"] = "Kept"
                try context.save()
                return book
            }
        }()
        #expect(object.managedObjectContext == nil)
        do {
            try object.setValue("Changed", forKey: "title")
            Issue.record("a change to an object without a context was taken")
        } catch let error as ObjectAccessError {
            #expect(error.description.contains("\(object.objectID) belongs to no context"))
        }
    }

    @Test func anObjectOfAnotherContextIsRefusedNamingBothContexts() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: ChildContextTests.model(), storeURL: store.url)
        let view = container.viewContext
        let book = try view.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        let background = container.newBackgroundContext(name: "import")
        let author = UncheckedBox(try background.performAndWait { try background.insertObject(forEntityName: "Author") })
        do {
            try book.setValue(author.value, forKey: "author")
            Issue.record("a destination of another context was taken")
        } catch let error as ObjectAccessError {
            #expect(error.description.contains("belongs to context 'import' (private queue)"))
            #expect(error.description.contains("a main queue context"))
        }
    }

    // MARK: - One writer, many readers

    @Test func fourBackgroundContextsInsertWhileTheViewContextFetches() async throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let perContext = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let context = container.newBackgroundContext(name: "writer \(writer)")
                    try await context.perform {
                        for batch in 0..<(perContext / 20) {
                            for number in 0..<20 {
                                let book = try context.insertObject(forEntityName: "Book")
                                book["title"] = "w\(writer)-\(batch * 20 + number)"
                                book["year"] = Int32(writer)
                            }
                            try context.save()
                        }
                    }
                }
            }
            group.addTask {
                var last = 0
                for _ in 0..<20 {
                    let count = try await container.viewContext.perform {
                        try container.viewContext.fetch(FetchRequest(entityName: "Book")).count
                    }
                    // Each fetch is one snapshot of whole saves, and saves only add.
                    #expect(count % 20 == 0)
                    #expect(count >= last)
                    last = count
                }
            }
            try await group.waitForAll()
        }
        let titles = try Self.titles(in: container)
        #expect(titles.count == 4 * perContext)
        #expect(Set(titles).count == 4 * perContext)
    }

    @Test func aReadDoesNotWaitForAWriteInProgress() throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let book = try container.viewContext.insertObject(forEntityName: "Book")
        book["title"] = "Before"
        try container.viewContext.save()

        let coordinator = container.persistentStoreCoordinator
        let writing = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // A save's transaction, held open: the writer connection is taken meanwhile.
            _ = try? coordinator.performWrite(rowCount: 1) { _, _ in
                writing.signal()
                finish.wait()
            }
            done.signal()
        }
        writing.wait()
        // Read through a reader connection, which sees the last commit.
        #expect(try Self.titles(in: container) == ["Before"])
        finish.signal()
        done.wait()
    }

    // MARK: - Merging saves

    @Test func aViewContextThatMergesAutomaticallySeesABackgroundEdit() async throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let view = container.viewContext
        let id = try await Self.insertBook("Draft", in: container)
        let before = try await view.perform {
            view.automaticallyMergesChangesFromParent = true
            return try view.existingObject(with: id)["title"] as? String
        }
        #expect(before == "Draft")
        try await container.performBackgroundTask { context in
            try context.existingObject(with: id)["title"] = "Final"
            try context.save()
        }
        // The merge was scheduled on the main queue before this block.
        let after = try await view.perform { try view.existingObject(with: id)["title"] as? String }
        #expect(after == "Final")
    }

    @Test func aMergedDeletionLeavesTheObjectInaccessibleNotStale() async throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let view = container.viewContext
        let id = try await Self.insertBook("Doomed", in: container)
        let object = try view.existingObject(with: id)
        #expect(object["title"] as? String == "Doomed")
        let save = try await container.performBackgroundTask { context in
            let saves = SaveLog()
            let observer = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectIDsNotification, object: context, queue: nil
            ) { note in
                if let save = note.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave { saves.append(save) }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            context.delete(try context.existingObject(with: id))
            try context.save()
            return saves.all
        }
        #expect(save.count == 1)
        #expect(save.first?.deletedObjectIDs == [id])
        view.mergeChanges(fromContextDidSave: try #require(save.first))
        #expect(object.managedObjectContext == nil)
        #expect(object["title"] == nil)
        do {
            _ = try view.existingObject(with: id)
            Issue.record("a deleted object was fetched")
        } catch let error as ObjectAccessError {
            #expect(error.description == "Can't get \(id): could not fulfill a fault: the store has no such row (deleted, or never saved)")
        }
    }

    @Test func aMergeKeepsUnsavedChangesAndAvoidsAFalseConflict() async throws {
        let store = TemporaryStore()
        let container = try Self.container(store)
        let view = container.viewContext
        let id = try await Self.insertBook("Shared", in: container)
        let mine = try view.existingObject(with: id)
        mine["year"] = Int32(2001)
        let saves = container.persistentStoreCoordinator.contextDidSaves()
        try await container.performBackgroundTask { context in
            try context.existingObject(with: id)["title"] = "Theirs"
            try context.save()
        }
        var iterator = saves.makeAsyncIterator()
        let save = try #require(await iterator.next())
        #expect(save.updatedObjectIDs == [id])
        view.mergeChanges(fromContextDidSave: save)
        #expect(mine["title"] as? String == "Theirs")
        #expect(mine.value(forKey: "year", as: Int32.self) == 2001)
        try view.save()  // `.error` policy: the merged version is the one read
        #expect(try Self.titles(in: container) == ["Theirs"])
    }

    // MARK: - Helpers

    /// Every book's title, read by a fresh container.
    static func titles(in container: PersistentContainer) throws -> [String] {
        let reader = try PersistentContainer(model: model(), storeURL: container.storeURL)
        return try reader.viewContext.fetch(FetchRequest(entityName: "Book")).compactMap { $0["title"] as? String }.sorted()
    }
}

/// A value carried across queues without Sendable checking: only for the test that shows
/// what happens when code does so anyway.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// The saves a notification observer heard.
private final class SaveLog: Sendable {
    private let saves = Mutex<[ContextDidSave]>([])
    func append(_ save: ContextDidSave) { saves.withLock { $0.append(save) } }
    var all: [ContextDidSave] { saves.withLock { $0 } }
}
