import Foundation
import PersistenceTestSupport
import Testing
import Persistence

@Suite struct RelationshipTests {
    @Test func manyToManySharesOneJoinTableIndexedBothWays() throws {
        let store = TemporaryStore()
        _ = try PersistentContainer(model: relationshipModel(), storeURL: store.url)
        let tables = try store.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .compactMap { $0[0].textValue }.filter { $0.contains("_") && !$0.hasPrefix("_") }
        #expect(tables == [
            "Book_chapters", "Book_related", "Book_tags", "Box_items", "Employee_friends", "Employee_mentees", "Playlist_songs",
        ])
        #expect(tables.contains("Book_tags") && !tables.contains("Tag_books"), "one table for both sides")
        #expect(tables.contains("Employee_mentees") && !tables.contains("Employee_mentors"))
        let indexes = try store.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Book_tags' ORDER BY name")
            .compactMap { $0[0].textValue }
        #expect(indexes == ["Book_tags_destination_source", "Book_tags_source_destination"])
        #expect(try store.rows("SELECT name FROM pragma_table_info('Playlist_songs') ORDER BY cid").compactMap { $0[0].textValue }
            == ["source", "destination", "position", "inversePosition"])
    }

    @Test func manyToManyLinksSurviveReopenFromBothSides() throws {
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
            let dune = try context.make("Book", "Dune")
            let emma = try context.make("Book", "Emma")
            let scifi = try context.make("Tag", "scifi")
            let classic = try context.make("Tag", "classic")
            dune.addObject(scifi, forKey: "tags")
            dune.addObject(classic, forKey: "tags")
            classic.addObject(emma, forKey: "books")
            #expect(names(classic.objects(forKey: "books")) == ["Dune", "Emma"], "the inverse is kept in memory")
            try context.save()
        }
        #expect(try store.rows("SELECT count(*) FROM Book_tags") == [[.integer(3)]])
        let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
        let dune = try context.named("Book", "Dune")
        #expect(Set(names(dune.objects(forKey: "tags"))) == ["scifi", "classic"])
        let classic = try context.named("Tag", "classic")
        #expect(Set(names(classic.objects(forKey: "books"))) == ["Dune", "Emma"])
        // Remove from the Tag side; the book side and the store follow.
        classic.removeObject(dune, forKey: "books")
        #expect(names(dune.objects(forKey: "tags")) == ["scifi"])
        try context.save()
        #expect(try store.rows("SELECT count(*) FROM Book_tags") == [[.integer(2)]])
    }

    @Test func aSideThatIsStillAFaultWritesItsEdits() throws {
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
            _ = try context.make("Employee", "Ann")
            _ = try context.make("Employee", "Bob")
            try context.save()
        }
        do {
            let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
            let ann = try context.named("Employee", "Ann")
            let bob = try context.named("Employee", "Bob")
            ann.addObject(bob, forKey: "friends")  // Bob's friends are not loaded: a pending edit
            #expect(bob.isFault == false)
            try context.save()
        }
        let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
        #expect(names(try context.named("Employee", "Bob").objects(forKey: "friends")) == ["Ann"])
        #expect(names(try context.named("Employee", "Ann").objects(forKey: "friends")) == ["Bob"])
    }

    @Test func toManyWithoutInverseReflexiveAndSubEntityDestinations() throws {
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
            let a = try context.make("Book", "A")
            let b = try context.make("Book", "B")
            a.addObject(b, forKey: "related")
            a.addObject(a, forKey: "related")
            let box = try context.make("Box", "box")
            let plain = try context.make("Item", "plain")
            let gadget = try context.make("Gadget", "gadget")
            box.addObject(gadget, forKey: "items")
            box.addObject(plain, forKey: "items")
            try context.save()
        }
        let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
        #expect(names(try context.named("Book", "A").objects(forKey: "related")) == ["B", "A"])
        #expect(try context.named("Book", "B").objects(forKey: "related").isEmpty)
        let items = try context.named("Box", "box").objects(forKey: "items")
        #expect(names(items) == ["gadget", "plain"])
        #expect(items.map(\.entityName) == ["Gadget", "Item"])
    }

    @Test func reflexiveOneToManyAndManyToMany() throws {
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
            let boss = try context.make("Employee", "Boss")
            let ann = try context.make("Employee", "Ann")
            let bob = try context.make("Employee", "Bob")
            ann.setObject(boss, forKey: "manager")
            bob.setObject(boss, forKey: "manager")
            ann.addObject(bob, forKey: "mentees")
            boss.addObject(bob, forKey: "mentees")
            #expect(Set(names(bob.objects(forKey: "mentors"))) == ["Ann", "Boss"])
            try context.save()
        }
        let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
        let boss = try context.named("Employee", "Boss")
        #expect(names(boss.objects(forKey: "reports")) == ["Ann", "Bob"])
        #expect(Set(names(try context.named("Employee", "Bob").objects(forKey: "mentors"))) == ["Ann", "Boss"])
        #expect(names(boss.objects(forKey: "mentees")) == ["Bob"])
        #expect(boss.objects(forKey: "mentors").isEmpty)
    }

    @Test func deletingAnObjectRemovesItsJoinRows() throws {
        let store = TemporaryStore()
        let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
        let dune = try context.make("Book", "Dune")
        let emma = try context.make("Book", "Emma")
        let tag = try context.make("Tag", "t")
        dune.addObject(tag, forKey: "tags")
        emma.addObject(tag, forKey: "tags")
        emma.addObject(dune, forKey: "related")
        dune.addObject(emma, forKey: "related")
        try context.save()
        #expect(try store.rows("SELECT count(*) FROM Book_tags") == [[.integer(2)]])
        context.delete(dune)
        try context.save()
        #expect(try store.rows("SELECT count(*) FROM Book_tags") == [[.integer(1)]])
        #expect(try store.rows("SELECT count(*) FROM Book_related") == [[.integer(0)]], "both directions go")
        #expect(names(tag.objects(forKey: "books")) == ["Emma"])
    }

    @Test func anOldStoreGetsItsJoinTablesWhenOpened() throws {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: relationshipModel(), storeURL: store.url)
            let book = try container.viewContext.make("Book", "B")
            for name in ["one", "two"] {
                try container.viewContext.make("Chapter", name).setValue(book, forKey: "book")
            }
            try container.viewContext.save()
            // Make it look like a store written before join tables existed.
            try store.file.write("DROP TABLE Book_chapters; DROP TABLE Book_tags")
        }
        do {
            // Read-only, the table cannot be made: the to-one column still answers.
            let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url, readOnly: true).viewContext
            #expect(names(try context.named("Book", "B").objects(forKey: "chapters")) == ["one", "two"])
        }
        let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
        #expect(try store.rows("SELECT source, destination, position FROM Book_chapters")
            == [[.integer(1), .integer(1), .integer(0)], [.integer(1), .integer(2), .integer(1)]])
        #expect(names(try context.named("Book", "B").objects(forKey: "chapters")) == ["one", "two"], "filled from the column")
        try context.named("Book", "B").addObject(try context.make("Tag", "t"), forKey: "tags")
        try context.save()
        #expect(try store.rows("SELECT count(*) FROM Book_tags") == [[.integer(1)]])
    }

    @Test func aToOneWithoutInverseIsAColumnAndTransientsAreNotStored() throws {
        let model = ManagedObjectModel {
            Entity("Note") {
                Attribute("text", .string)
                Relationship("see", to: "Note")
                Relationship("scratch", to: "Note", transient: true)
                Relationship("pile", to: "Note", toMany: true, transient: true)
            }
        }
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
            let a = try context.insertObject(forEntityName: "Note")
            let b = try context.insertObject(forEntityName: "Note")
            a["text"] = "a"
            b["text"] = "b"
            a.setObject(b, forKey: "see")
            a.setObject(b, forKey: "scratch")
            a.addObject(b, forKey: "pile")
            try context.save()
        }
        #expect(try store.rows("SELECT name FROM pragma_table_info('Note') ORDER BY cid").compactMap { $0[0].textValue }
            == ["_id", "_opt", "text", "see"])
        #expect(try store.rows("SELECT count(*) FROM sqlite_master WHERE name LIKE 'Note\\_%' ESCAPE '\\' AND type = 'table'")
            == [[.integer(0)]], "no join table for a transient to-many")
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let a = try #require(try context.fetch(FetchRequest(entityName: "Note", predicate: try FetchPredicate("text == 'a'"))).first)
        #expect(a.object(forKey: "see")?["text"] as? String == "b")
        #expect(a.object(forKey: "scratch") == nil)
        #expect(a.objects(forKey: "pile").isEmpty)
    }

    @Test func rollbackDiscardsLinkEditsOnBothSides() throws {
        let store = TemporaryStore()
        let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
        let book = try context.make("Book", "B")
        let kept = try context.make("Tag", "kept")
        let list = try context.make("Playlist", "mix")
        for name in ["a", "b"] { list.addObject(try context.make("Song", name), forKey: "songs") }
        book.addObject(kept, forKey: "tags")
        try context.save()
        book.removeObject(kept, forKey: "tags")
        book.addObject(try context.make("Tag", "new"), forKey: "tags")
        try list.moveObject(at: 1, to: 0, forKey: "songs")
        context.rollback()
        #expect(names(book.objects(forKey: "tags")) == ["kept"])
        #expect(names(kept.objects(forKey: "books")) == ["B"])
        #expect(names(list.objects(forKey: "songs")) == ["a", "b"])
        #expect(!context.hasChanges)
        try context.save()
        #expect(try store.rows("SELECT count(*) FROM Book_tags") == [[.integer(1)]])
    }
}
