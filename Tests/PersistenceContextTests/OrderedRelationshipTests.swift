import Foundation
import PersistenceTestSupport
import Testing
import Persistence

@Suite struct OrderedRelationshipTests {
    private func open(_ store: TemporaryStore) throws -> ManagedObjectContext {
        try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
    }

    @Test func insertMoveAndRemoveSurviveSaveAndReopen() throws {
        let store = TemporaryStore()
        do {
            let context = try open(store)
            let list = try context.make("Playlist", "mix")
            for name in ["a", "b", "c", "d"] { list.addObject(try context.make("Song", name), forKey: "songs") }
            try context.save()
        }
        do {
            let context = try open(store)
            let list = try context.named("Playlist", "mix")
            try list.moveObject(at: 3, to: 0, forKey: "songs")  // d a b c
            try list.insertObject(try context.make("Song", "e"), at: 2, forKey: "songs")  // d a e b c
            let removed = try list.removeObject(at: 3, forKey: "songs")  // d a e c
            #expect(names([removed]) == ["b"])
            #expect(removed.objects(forKey: "playlists").isEmpty, "the inverse follows")
            try context.save()
        }
        do {
            let context = try open(store)
            let list = try context.named("Playlist", "mix")
            #expect(names(list.objects(forKey: "songs")) == ["d", "a", "e", "c"])
            #expect(names(try context.named("Song", "e").objects(forKey: "playlists")) == ["mix"])
            // Inserting an object already there moves it.
            try list.insertObject(try context.named("Song", "c"), at: 0, forKey: "songs")
            #expect(names(list.objects(forKey: "songs")) == ["c", "d", "a", "e"])
            try context.save()
        }
        let context = try open(store)
        #expect(names(try context.named("Playlist", "mix").objects(forKey: "songs")) == ["c", "d", "a", "e"])
        #expect(try store.rows("SELECT count(*) FROM Playlist_songs") == [[.integer(4)]])
    }

    @Test func addingFromTheInverseSideAppendsEvenWhileTheListIsAFault() throws {
        let store = TemporaryStore()
        do {
            let context = try open(store)
            let book = try context.make("Book", "B")
            for name in ["one", "two"] { book.addObject(try context.make("Chapter", name), forKey: "chapters") }
            let list = try context.make("Playlist", "mix")
            list.addObject(try context.make("Song", "s1"), forKey: "songs")
            _ = try context.make("Song", "s2")
            try context.save()
        }
        do {
            let context = try open(store)
            let book = try context.named("Book", "B")
            // The book's chapters are not loaded: setting the to-one records a pending edit.
            try context.make("Chapter", "three").setValue(book, forKey: "book")
            try context.named("Song", "s2").addObject(try context.named("Playlist", "mix"), forKey: "playlists")
            try context.save()
        }
        let context = try open(store)
        #expect(names(try context.named("Book", "B").objects(forKey: "chapters")) == ["one", "two", "three"])
        #expect(names(try context.named("Playlist", "mix").objects(forKey: "songs")) == ["s1", "s2"])
    }

    @Test func orderedToManyWithAToOneInverseKeepsBothInStep() throws {
        let store = TemporaryStore()
        let context = try open(store)
        let first = try context.make("Book", "First")
        let second = try context.make("Book", "Second")
        let chapter = try context.make("Chapter", "c")
        first.addObject(chapter, forKey: "chapters")
        try second.insertObject(chapter, at: 0, forKey: "chapters")
        #expect(first.objects(forKey: "chapters").isEmpty)
        #expect(chapter.object(forKey: "book") === second)
        try context.save()
        #expect(try store.rows("SELECT source, destination FROM Book_chapters") == [[.integer(2), .integer(1)]])
        #expect(try store.rows("SELECT book FROM Chapter") == [[.integer(2)]])
    }

    @Test func aManyToManyOrderedOnBothSidesKeepsEachSidesOrder() throws {
        let store = TemporaryStore()
        do {
            let context = try open(store)
            let lists = try ["x", "y"].map { try context.make("Playlist", $0) }
            let songs = try ["a", "b"].map { try context.make("Song", $0) }
            for list in lists { for song in songs { list.addObject(song, forKey: "songs") } }
            try lists[1].moveObject(at: 1, to: 0, forKey: "songs")  // y: b a
            try songs[0].moveObject(at: 1, to: 0, forKey: "playlists")  // a: y x
            try context.save()
        }
        let context = try open(store)
        #expect(names(try context.named("Playlist", "x").objects(forKey: "songs")) == ["a", "b"])
        #expect(names(try context.named("Playlist", "y").objects(forKey: "songs")) == ["b", "a"])
        #expect(names(try context.named("Song", "a").objects(forKey: "playlists")) == ["y", "x"])
        #expect(names(try context.named("Song", "b").objects(forKey: "playlists")) == ["x", "y"])
        #expect(try store.rows("SELECT count(*) FROM Playlist_songs") == [[.integer(4)]])
    }

    @Test func badIndexesAndUnorderedKeysAreRefused() throws {
        let context = try open(TemporaryStore())
        let list = try context.make("Playlist", "mix")
        let song = try context.make("Song", "s")
        let tooFar = try #require(throws: ObjectAccessError.self) { try list.insertObject(song, at: 1, forKey: "songs") }
        #expect(tooFar.description == "Can't set Playlist.songs: index 1 is out of range 0...0")
        #expect(throws: ObjectAccessError.self) { try list.removeObject(at: 0, forKey: "songs") }
        #expect(throws: ObjectAccessError.self) { try list.moveObject(at: 0, to: 0, forKey: "songs") }
        let book = try context.make("Book", "b")
        let unordered = try #require(throws: ObjectAccessError.self) { try book.insertObject(try context.make("Tag", "t"), at: 0, forKey: "tags") }
        #expect(unordered.description.contains("tags is not an ordered to-many relationship"))
        #expect(throws: ObjectAccessError.self) { try list.insertObject(list, at: 0, forKey: "songs") }
    }
}
