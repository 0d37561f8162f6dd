import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// Under object-trump merging an inserted object that adopts an existing row (same unique
/// key) brings its own relationship members: the old row's join-table links are replaced,
/// not kept beside the new ones, and both sides read the same after reopening.
@Suite struct ObjectTrumpJoinRowTests {
    /// Unique titles and names, with a many-to-many (`Book.tags` ↔ `Tag.books`), an
    /// inverse-less to-many (`Book.related`, and `Shelf.books` pointing at books from
    /// outside), an ordered to-many with a to-one inverse (`Book.chapters` ↔
    /// `Chapter.book`) and a many-to-many ordered on both sides (`Playlist.songs` ↔
    /// `Song.playlists`).
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("note", .string)
                Relationship("tags", to: "Tag", inverse: "books", toMany: true)
                Relationship("related", to: "Book", toMany: true)
                Relationship("chapters", to: "Chapter", inverse: "book", toMany: true, ordered: true)
                UniquenessConstraint("title")
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "tags", toMany: true)
                UniquenessConstraint("name")
            }
            Entity("Chapter") {
                Attribute("name", .string)
                Relationship("book", to: "Book", inverse: "chapters")
                UniquenessConstraint("name")
            }
            Entity("Shelf") {
                Attribute("name", .string)
                Relationship("books", to: "Book", toMany: true)
            }
            Entity("Playlist") {
                Attribute("name", .string)
                Relationship("songs", to: "Song", inverse: "playlists", toMany: true, ordered: true)
            }
            Entity("Song") {
                Attribute("name", .string)
                Relationship("playlists", to: "Playlist", inverse: "songs", toMany: true, ordered: true)
                UniquenessConstraint("name")
            }
            Entity("Person") {
                Attribute("name", .string)
                Relationship("friends", to: "Person", inverse: "friends", toMany: true)
                UniquenessConstraint("name")
            }
        }
    }

    /// A store holding book "Dune" tagged a and b, related to "Emma", with chapters c1 and
    /// c2, on shelf s; returns its URL holder.
    private func seededStore() throws -> TemporaryStore {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
        let context = container.viewContext
        let dune = try context.make("Book", "Dune")
        let emma = try context.make("Book", "Emma")
        let a = try context.make("Tag", "a")
        let b = try context.make("Tag", "b")
        try dune.setValue([a, b], forKey: "tags")
        try dune.setValue([emma], forKey: "related")
        try dune.setValue([try context.make("Chapter", "c1"), try context.make("Chapter", "c2")], forKey: "chapters")
        let shelf = try context.make("Shelf", "s")
        try shelf.setValue([dune], forKey: "books")
        try context.save()
        return store
    }

    @Test func adoptingBookReplacesItsManyToManyAndInverseLessLinks() throws {
        let store = try seededStore()
        do {
            let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
            let context = container.viewContext
            context.mergePolicy = .mergeByPropertyObjectTrump
            let c = try context.make("Tag", "c")
            let zed = try context.make("Book", "Zed")
            let dune = try context.make("Book", "Dune")
            try dune.setValue([c], forKey: "tags")
            try dune.setValue([zed], forKey: "related")
            try context.save()
        }
        let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
        let context = container.viewContext
        let dune = try context.named("Book", "Dune")
        #expect(try context.fetch(FetchRequest(entityName: "Book")).count == 3)
        #expect(Set(names(dune.objects(forKey: "tags"))) == ["c"])
        #expect(names(dune.objects(forKey: "related")) == ["Zed"])
        // The inverse side agrees.
        #expect(try context.named("Tag", "a").objects(forKey: "books").isEmpty)
        #expect(try context.named("Tag", "b").objects(forKey: "books").isEmpty)
        #expect(names(try context.named("Tag", "c").objects(forKey: "books")) == ["Dune"])
        // Links from other objects to the row, which the inserted object does not model,
        // stay: the row is updated, not replaced.
        #expect(names(try context.named("Shelf", "s").objects(forKey: "books")) == ["Dune"])
        #expect(try store.rows("SELECT count(*) FROM Book_tags") == [[.integer(1)]])
    }

    @Test func adoptingBookWithNoMembersClearsItsLinks() throws {
        let store = try seededStore()
        do {
            let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
            let context = container.viewContext
            context.mergePolicy = .mergeByPropertyObjectTrump
            let dune = try context.make("Book", "Dune")
            dune["note"] = "new"
            try context.save()
        }
        let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
        let context = container.viewContext
        let dune = try context.named("Book", "Dune")
        #expect(dune["note"] as? String == "new")
        #expect(dune.objects(forKey: "tags").isEmpty)
        #expect(dune.objects(forKey: "related").isEmpty)
        #expect(dune.objects(forKey: "chapters").isEmpty)
        // The chapters' rows still exist but no longer point at the book's chapter list;
        // their to-one column still names the book: the book's columns are its own, the
        // chapters' are theirs. The ordered join table is the book's, and is now empty.
        #expect(try store.rows("SELECT count(*) FROM Book_chapters") == [[.integer(0)]])
        #expect(try context.named("Tag", "a").objects(forKey: "books").isEmpty)
    }

    @Test func adoptingChapterMovesItOutOfItsOldBooksOrderedList() throws {
        let store = try seededStore()
        do {
            let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
            let context = container.viewContext
            context.mergePolicy = .mergeByPropertyObjectTrump
            let emma = try context.named("Book", "Emma")
            let c1 = try context.make("Chapter", "c1")
            c1.setObject(emma, forKey: "book")
            try context.save()
        }
        let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
        let context = container.viewContext
        #expect(try context.fetch(FetchRequest(entityName: "Chapter")).count == 2)
        #expect(names(try context.named("Book", "Dune").objects(forKey: "chapters")) == ["c2"])
        #expect(names(try context.named("Book", "Emma").objects(forKey: "chapters")) == ["c1"])
        let c1 = try context.named("Chapter", "c1")
        #expect(c1.object(forKey: "book").map { names([$0]) } == ["Emma"])
    }

    @Test func adoptingSongReplacesItsOrderedManyToManyLinksOnBothSides() throws {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
            let context = container.viewContext
            let p1 = try context.make("Playlist", "p1")
            let p2 = try context.make("Playlist", "p2")
            let x = try context.make("Song", "x")
            let y = try context.make("Song", "y")
            try p1.setValue([x, y], forKey: "songs")
            try p2.setValue([y, x], forKey: "songs")
            try context.save()
        }
        do {
            let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
            let context = container.viewContext
            context.mergePolicy = .mergeByPropertyObjectTrump
            let p3 = try context.make("Playlist", "p3")
            let x = try context.make("Song", "x")
            try x.setValue([p3], forKey: "playlists")
            try context.save()
        }
        let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
        let context = container.viewContext
        #expect(names(try context.named("Song", "x").objects(forKey: "playlists")) == ["p3"])
        #expect(names(try context.named("Playlist", "p1").objects(forKey: "songs")) == ["y"])
        #expect(names(try context.named("Playlist", "p2").objects(forKey: "songs")) == ["y"])
        #expect(names(try context.named("Playlist", "p3").objects(forKey: "songs")) == ["x"])
    }

    @Test func adoptingPersonDropsBothDirectionsOfASelfInverseRelationship() throws {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
            let context = container.viewContext
            let ann = try context.make("Person", "ann")
            try ann.setValue([try context.make("Person", "bob"), try context.make("Person", "cy")], forKey: "friends")
            try context.save()
        }
        do {
            let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
            let context = container.viewContext
            context.mergePolicy = .mergeByPropertyObjectTrump
            let ann = try context.make("Person", "ann")
            try ann.setValue([try context.named("Person", "cy")], forKey: "friends")
            try context.save()
        }
        let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
        let context = container.viewContext
        #expect(names(try context.named("Person", "ann").objects(forKey: "friends")) == ["cy"])
        #expect(try context.named("Person", "bob").objects(forKey: "friends").isEmpty)
        #expect(names(try context.named("Person", "cy").objects(forKey: "friends")) == ["ann"])
    }

    @Test func underTheErrorPolicyAConflictStillFailsAndKeepsTheLinks() throws {
        let store = try seededStore()
        let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
        let context = container.viewContext
        let dune = try context.make("Book", "Dune")
        try dune.setValue([try context.make("Tag", "c")], forKey: "tags")
        #expect(throws: ConstraintConflictError.self) { try context.save() }
        #expect(try store.rows("SELECT count(*) FROM Book_tags") == [[.integer(2)]])
    }
    /// In the context that saves, what held the object whose row was taken over reads the
    /// store's links again: a tag loses a book whose new object has other tags, and a shelf
    /// and a chapter that held the old object now hold the new one, the row's only object.
    @Test func adoptionInTheSavingContextRefaultsWhatHeldTheOldObject() throws {
        let store = try seededStore()
        let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
        let context = container.viewContext
        context.mergePolicy = .mergeByPropertyObjectTrump
        let a = try context.named("Tag", "a")
        let shelf = try context.named("Shelf", "s")
        let c1 = try context.named("Chapter", "c1")
        #expect(names(a.objects(forKey: "books")) == ["Dune"])
        #expect(names(shelf.objects(forKey: "books")) == ["Dune"])
        #expect(c1.object(forKey: "book").map { names([$0]) } == ["Dune"])

        let c = try context.make("Tag", "c")
        let dune = try context.make("Book", "Dune")
        dune["note"] = "new"
        try dune.setValue([c], forKey: "tags")
        try context.save()

        #expect(a.objects(forKey: "books").isEmpty)
        #expect(c.objects(forKey: "books").map { $0 === dune } == [true])
        #expect(shelf.objects(forKey: "books").map { $0 === dune } == [true])
        #expect(c1.object(forKey: "book") === dune)
        #expect(try context.named("Book", "Dune") === dune)
        #expect(!context.hasChanges)
    }
}
