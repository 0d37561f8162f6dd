import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
import PersistenceSQLite
@testable import PersistenceSQLiteStore

/// The search index against a full scan: after random saves and rolled-back saves, on
/// reopening, and when a store lacks its index.
@Suite struct SearchIndexConsistencyTests {
    static let vocabulary = [
        "Łódź", "Straße", "CAFÉ", "Ærø", "Œuvre", "winter", "garden", "Ёлка", "Ἀθῆναι", "the", "ring",
        "x", "ab", "Tiếng", "Việt", "50%", "\"q\"", "a_b", "NEAR", "İstanbul", "ＡＢＣ", "東京",
    ]

    /// Every book's folded title and author name, and the search answer computed from them
    /// alone: the oracle the store's answer must equal, order included.
    static func scan(_ context: ManagedObjectContext, _ text: String) throws -> [ObjectID] {
        let search = SearchText(text)
        guard !search.words.isEmpty else { return [] }
        var rows: [(rank: Int, title: String, key: Int64, id: ObjectID)] = []
        for book in try context.fetch(FetchRequest(entityName: "Book")) {
            let title = book["title"] as? String ?? ""
            let author = (book["author"] as? ManagedObject)?["name"] as? String ?? ""
            let fields = [CanonicalText.fold(title), CanonicalText.fold(author)]
            guard search.matches(fields) else { continue }
            rows.append((search.rank(fields), title, book.objectID.primaryKey ?? 0, book.objectID))
        }
        rows.sort { ($0.rank, $0.title, $0.key) < ($1.rank, $1.title, $1.key) }
        return rows.map(\.id)
    }

    static func searched(_ context: ManagedObjectContext, _ text: String) throws -> [ObjectID] {
        var request = FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")])
        request.searchText = text
        request.searchKeyPaths = ["canonicalTitle", "author.canonicalName"]
        return try context.fetch(request).map(\.objectID)
    }

    static func randomText(_ generator: inout SplitMix64) -> String {
        var words: [String] = []
        for _ in 0..<(1 + Int(generator.next() % 3)) {
            let word = vocabulary[Int(generator.next() % UInt64(vocabulary.count))]
            // A random piece of the word: whole, a prefix, or an inner substring.
            let characters = Array(word)
            let start = Int(generator.next() % UInt64(characters.count))
            let length = 1 + Int(generator.next() % UInt64(characters.count - start))
            words.append(generator.next() % 2 == 0 ? word : String(characters[start..<start + length]))
        }
        return words.joined(separator: generator.next() % 4 == 0 ? "-" : " ")
    }

    @Test func indexAgreesWithAFullScanAfterRandomSavesAndRollbacks() throws {
        var generator = SplitMix64(seed: 0x5EED_F75)
        let context = try PersistentContainer(model: SearchFixture.model(), storeURL: nil).viewContext
        var authors: [ManagedObject] = []
        var nextCode = 0
        var rolledBack = 0
        for round in 0..<40 {
            var books = try context.fetch(FetchRequest(entityName: "Book"))
            for _ in 0..<Int(generator.next() % 6) {
                let book = try context.insertObject(forEntityName: "Book")
                book["title"] = Self.randomText(&generator)
                book["code"] = "c\(nextCode)"
                nextCode += 1
                if generator.next() % 3 != 0 {
                    if authors.isEmpty || generator.next() % 4 == 0 {
                        let author = try context.insertObject(forEntityName: "Author")
                        author["name"] = Self.randomText(&generator)
                        authors.append(author)
                    }
                    book.setObject(authors[Int(generator.next() % UInt64(authors.count))], forKey: "author")
                }
                books.append(book)
            }
            for _ in 0..<Int(generator.next() % 4) where !books.isEmpty {
                let book = books[Int(generator.next() % UInt64(books.count))]
                if !book.isDeleted { book["title"] = Self.randomText(&generator) }
            }
            if let author = authors.randomElement(using: &generator), !author.isDeleted {
                author["name"] = Self.randomText(&generator)
            }
            for _ in 0..<Int(generator.next() % 3) where !books.isEmpty {
                context.delete(books.remove(at: Int(generator.next() % UInt64(books.count))))
            }
            // Every fourth round fails inside the transaction, after the inserts and some
            // updates have reached the index: an update takes a code already stored.
            let saved = books.filter { !$0.isInserted && !$0.isDeleted }
            let failing = round % 4 == 3 && saved.count >= 2
            if failing { saved[1]["code"] = saved[0]["code"] as? String }
            do {
                try context.save()
                #expect(!failing, "round \(round) should have failed")
            } catch is ConstraintConflictError {
                #expect(failing, "round \(round)")
                context.rollback()
                rolledBack += 1
            }
            authors.removeAll { $0.isDeleted || $0.managedObjectContext == nil }
            try context.checkSearchIndexes()
            for _ in 0..<6 {
                let text = Self.randomText(&generator)
                let expected = try Self.scan(context, text)
                #expect(try Self.searched(context, text) == expected, "round \(round): \(text)")
                context.sqliteStore.searchIndexesAreUsable = false
                #expect(try Self.searched(context, text) == expected, "round \(round), scanning: \(text)")
                context.sqliteStore.searchIndexesAreUsable = true
            }
        }
        #expect(rolledBack >= 8)
        #expect(try context.count(for: FetchRequest(entityName: "Book")) > 20)
    }

    // MARK: - Opening

    private static func openBooks(_ store: TemporaryStore, model: ManagedObjectModel = SearchFixture.model(), readOnly: Bool = false)
        throws -> ManagedObjectContext
    {
        try PersistentContainer(model: model, storeURL: store.url, readOnly: readOnly).viewContext
    }

    private static func seed(_ store: TemporaryStore) throws {
        let context = try openBooks(store)
        for (i, title) in ["Łódź", "Straße", "Ёлка", "The Ring", "ab"].enumerated() {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = title
            book["code"] = "c\(i)"
        }
        try context.save()
    }

    private static func indexObjects(_ store: TemporaryStore) throws -> [String] {
        try store.rows("SELECT name FROM sqlite_master WHERE name LIKE '\\_search\\_%' ESCAPE '\\' AND name NOT LIKE '%\\_data' ESCAPE '\\' AND name NOT LIKE '%\\_idx' ESCAPE '\\' AND name NOT LIKE '%\\_docsize' ESCAPE '\\' AND name NOT LIKE '%\\_config' ESCAPE '\\' ORDER BY name")
            .compactMap { $0.first?.textValue }
    }

    @Test func aStoreWithoutItsIndexGetsItBuiltOnOpenWithTheSameVersionHashes() throws {
        let store = TemporaryStore()
        try Self.seed(store)
        #expect(try Self.indexObjects(store) == [
            "_search_Author", "_search_Author_content", "_search_Author_delete", "_search_Author_insert",
            "_search_Author_update", "_search_Book", "_search_Book_content", "_search_Book_delete",
            "_search_Book_insert", "_search_Book_update",
            "_search_Note", "_search_Note_content", "_search_Note_delete", "_search_Note_insert", "_search_Note_update",
        ])
        let hashes = try store.rows("SELECT key, value FROM _metadata WHERE key LIKE 'versionHash.%' ORDER BY key")
        // A store from before the index: no index objects, no record of them.
        let database = try store.file.connection(mode: .createIfMissing)
        for table in ["Author", "Book", "Note"] {
            for statement in SearchIndexMapping.dropStatements(table: table) { try database.execute(statement) }
        }
        try database.execute("DELETE FROM _metadata WHERE key LIKE 'searchIndex.%'")
        try database.close()
        #expect(try Self.indexObjects(store).isEmpty)

        let context = try Self.openBooks(store)
        #expect(try Self.indexObjects(store).count == 15)
        try context.checkSearchIndexes()
        #expect(try Self.searched(context, "lodz").count == 1)
        #expect(try Self.searched(context, "елка").count == 1)
        #expect(try store.rows("SELECT key, value FROM _metadata WHERE key LIKE 'versionHash.%' ORDER BY key") == hashes)
        #expect(
            try store.rows("SELECT value FROM _metadata WHERE key = 'searchIndex.Book'")
                == [[.text(SearchIndexMapping(table: "Book", columns: [.init(name: "canonicalTitle", isCanonical: true)]).signature)]])
    }

    @Test func anIndexMadeForOtherRulesIsRebuiltAndAnUnneededOneDropped() throws {
        let store = TemporaryStore()
        try Self.seed(store)
        let database = try store.file.connection(mode: .createIfMissing)
        // Empty the index behind the triggers' back and mark it as made by older rules.
        try database.execute("INSERT INTO _search_Book (_search_Book) VALUES ('delete-all')")
        try database.execute("UPDATE _metadata SET value = 'v0' WHERE key = 'searchIndex.Book'")
        try database.close()
        var context = try Self.openBooks(store)
        #expect(try Self.searched(context, "strasse").count == 1)
        try context.checkSearchIndexes()
        try context.closeStore()

        // The same model without "Index in Spotlight" on Note: same hashes, index dropped.
        let model = SearchFixture.model()
        let unindexed = ManagedObjectModel(entities: model.entities.map { entity in
            var entity = entity
            entity.attributes = entity.attributes.map { attribute in
                var attribute = attribute
                if entity.name == "Note" { attribute.isIndexedBySpotlight = false }
                return attribute
            }
            return entity
        })
        #expect(unindexed.entityVersionHashesByName == SearchFixture.model().entityVersionHashesByName)
        context = try Self.openBooks(store, model: unindexed)
        #expect(try Self.indexObjects(store).filter { $0.hasPrefix("_search_Note") }.isEmpty)
        #expect(try store.rows("SELECT count(*) FROM _metadata WHERE key = 'searchIndex.Note'") == [[.integer(0)]])
        #expect(try Self.searched(context, "ring").count == 1)
    }

    @Test func aReadOnlyStoreWithoutItsIndexSearchesByScanningAndIsLeftAsItWas() throws {
        let store = TemporaryStore()
        try Self.seed(store)
        let database = try store.file.connection(mode: .createIfMissing)
        for statement in SearchIndexMapping.dropStatements(table: "Book") { try database.execute(statement) }
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try database.close()
        let before = try Data(contentsOf: store.url)
        let context = try Self.openBooks(store, readOnly: true)
        #expect(!context.sqliteStore.searchIndexesAreUsable)
        for text in ["lodz", "ring", "ab", "strasse the"] {
            #expect(try Self.searched(context, text) == Self.scan(context, text), "\(text)")
        }
        #expect(try Self.searched(context, "lodz").count == 1)
        try context.closeStore()
        #expect(try Data(contentsOf: store.url) == before)
    }

    @Test func rowsEditedWithoutTheLibraryKeepTheirIndexOrAreRefused() throws {
        let store = TemporaryStore()
        try Self.seed(store)
        var context = try Self.openBooks(store)
        let note = try context.insertObject(forEntityName: "Note")
        note["text"] = "Łódź"
        try context.save()
        try context.closeStore()
        // As in the sqlite3 shell: no `canonical()` function registered.
        let shell = try store.file.connection(mode: .createIfMissing)
        try shell.execute("UPDATE Book SET canonicalTitle = 'krakow' WHERE title = 'Łódź'")
        try shell.execute("DELETE FROM Book WHERE title = 'ab'")
        #expect(throws: SQLiteError.self) { try shell.execute("UPDATE Note SET text = 'Kraków'") }
        try shell.close()
        context = try Self.openBooks(store)
        try context.checkSearchIndexes()
        #expect(try Self.searched(context, "krakow").count == 1)
        #expect(try Self.searched(context, "lodz").isEmpty)
        var notes = FetchRequest(entityName: "Note")
        notes.searchText = "lodz"
        #expect(try context.fetch(notes).count == 1)
    }
}
