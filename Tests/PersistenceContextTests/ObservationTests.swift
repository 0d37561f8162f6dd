import Foundation
import PersistenceTestSupport
import Observation
import Synchronization
import Testing

import Persistence
import PersistenceContext

/// Managed objects are observable with Swift's Observation: `withObservationTracking` sees
/// reads of managed properties and fires when they change, through setters, inverses,
/// undo, rollback, refresh and merges, and derived values computed at save.
@Suite struct ObservationTests {
    /// Whether an observation fired, and how often.
    final class Changes: Sendable {
        private let count = Mutex(0)
        func record() { count.withLock { $0 += 1 } }
        var fired: Int { count.withLock { $0 } }
    }

    /// Tracks what `read` reads of the objects; the returned `Changes` counts the firings.
    static func observe(_ read: () -> Void) -> Changes {
        let changes = Changes()
        withObservationTracking(read) { changes.record() }
        return changes
    }

    static func library(_ store: TemporaryStore) throws -> (PersistentContainer, ManagedObject, ManagedObject) {
        let container = try PersistentContainer(model: UndoTests.model(), storeURL: store.url)
        let context = container.viewContext
        context.isObservationEnabled = true
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = "Lem"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Solaris"
        book["author"] = author
        try context.save()
        return (container, author, book)
    }

    @Test func aSetterFiresAnObservationOfThatPropertyOnly() throws {
        let store = TemporaryStore()
        let (_, _, book) = try Self.library(store)
        let title = Self.observe { _ = book["title"] }
        book["year"] = Int32(1961)
        #expect(title.fired == 0)
        book["title"] = "Solaris (1961)"
        #expect(title.fired == 1)
    }

    @Test func anInverseChangeFiresTheOtherSidesObservation() throws {
        let store = TemporaryStore()
        let (container, author, _) = try Self.library(store)
        let books = Self.observe { _ = author.objects(forKey: "books") }
        let added = try container.viewContext.insertObject(forEntityName: "Book")
        added["title"] = "Eden"
        added["author"] = author
        #expect(books.fired == 1)
    }

    @Test func undoAndRollbackFireObservations() throws {
        let store = TemporaryStore()
        let (container, _, book) = try Self.library(store)
        let context = container.viewContext
        context.undoManager = UndoManager()
        book["title"] = "Changed"
        let undone = Self.observe { _ = book["title"] }
        context.undo()
        #expect(undone.fired == 1)
        #expect(book["title"] as? String == "Solaris")
        book["title"] = "Changed again"
        let rolledBack = Self.observe { _ = book["title"] }
        context.rollback()
        #expect(rolledBack.fired == 1)
    }

    @Test func aRefreshOrAMergeOfAnotherContextsSaveFires() async throws {
        let store = TemporaryStore()
        let (container, _, book) = try Self.library(store)
        let id = book.objectID
        let merged = Self.observe { _ = book["title"] }
        let saves = container.persistentStoreCoordinator.contextDidSaves()
        try await container.performBackgroundTask { context in
            try context.existingObject(with: id)["title"] = "Theirs"
            try context.save()
        }
        var iterator = saves.makeAsyncIterator()
        let save = try #require(await iterator.next())
        #expect(merged.fired == 0)
        container.viewContext.mergeChanges(fromContextDidSave: save)
        #expect(merged.fired == 1)
        #expect(book["title"] as? String == "Theirs")

        // Another process's save, read by a refresh.
        let other = try PersistentContainer(model: UndoTests.model(), storeURL: store.url)
        try other.viewContext.existingObject(with: id)["title"] = "Another process's"
        try other.viewContext.save()
        let refreshed = Self.observe { _ = book["title"] }
        container.viewContext.refreshAllObjects()
        #expect(refreshed.fired == 1)
        #expect(book["title"] as? String == "Another process's")
    }

    @Test func aConflictMergedAtSaveFiresForTheValuesTheStoreWon() throws {
        let store = TemporaryStore()
        let (container, _, book) = try Self.library(store)
        let context = container.viewContext
        context.mergePolicy = .mergeByPropertyObjectTrump
        let other = try PersistentContainer(model: UndoTests.model(), storeURL: store.url)
        try other.viewContext.existingObject(with: book.objectID)["title"] = "Theirs"
        try other.viewContext.save()
        book["year"] = Int32(1961)
        let title = Self.observe { _ = book["title"] }
        try context.save()
        #expect(title.fired == 1)
        #expect(book["title"] as? String == "Theirs")
    }

    @Test func aContextWithoutObservationMakesNoRegistrars() throws {
        let store = TemporaryStore()
        let (container, _, book) = try Self.library(store)
        let context = container.viewContext
        context.isObservationEnabled = false
        context.reset()
        let fetched = try context.fetch(FetchRequest(entityName: "Book"))
        #expect(fetched.map { $0["title"] as? String } == ["Solaris"])
        #expect(fetched.allSatisfy { $0.observationRegistrar == nil })
        // Fetched but never read, in an observable context: none either.
        context.isObservationEnabled = true
        context.reset()
        let faults = try context.fetch(FetchRequest(entityName: "Author"))
        #expect(faults.allSatisfy { $0.observationRegistrar == nil })
        _ = book
    }

    @Test func anObservationSeesNothingInAContextWithoutObservation() throws {
        let store = TemporaryStore()
        let (container, _, book) = try Self.library(store)
        container.viewContext.isObservationEnabled = false
        let fresh = try container.viewContext.existingObject(with: book.objectID)
        container.viewContext.reset()
        let other = try container.viewContext.existingObject(with: fresh.objectID)
        let title = Self.observe { _ = other["title"] }
        other["title"] = "Unseen"
        #expect(title.fired == 0)
    }
}
