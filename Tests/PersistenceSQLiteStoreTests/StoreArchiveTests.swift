import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// `StoreArchive` through the library: values of every type, relationships, errors with
/// their JSON paths, and deletes with their rules. In-memory stores; the tool's own tests
/// run the binary.
@Suite struct StoreArchiveTests {
    // MARK: - Values

    @Test func everyAttributeTypeRoundTripsExactly() throws {
        let model = ManagedObjectModel(
            entities: everyTypeModel().entities.filter { $0.name == "Item" })
        try model.freeze()
        let generated = ArchiveDocuments.generated(for: model, count: 7)
        let first = try Self.container(model)
        try StoreArchive.importJSON(Data(generated.rendered().utf8), into: first.viewContext)
        let exported = try JSONValue.parse(
            Data(try StoreArchive.exportJSON(from: first.viewContext).utf8))
        // What went in comes out, character for character.
        let sent = ArchiveDocuments.attributeValues(generated, model: model)
        let received = ArchiveDocuments.attributeValues(exported, model: model)
        for (key, value) in sent { #expect(received[key] == value, "\(key)") }
        #expect(!exported.rendered().contains("\"scratch\""), "a transient attribute is exported")
        // And again, through a second store.
        let second = try Self.container(model)
        try StoreArchive.importJSON(Data(exported.rendered().utf8), into: second.viewContext)
        let again = try JSONValue.parse(
            Data(try StoreArchive.exportJSON(from: second.viewContext).utf8))
        #expect(ArchiveDocuments.normalized(again) == ArchiveDocuments.normalized(exported))
    }

    @Test func importedValuesAreExactInMemoryAndInTheStore() throws {
        let container = try Self.container(everyTypeModel())
        let json = """
            {"Item": [{"@id": "x", "code": "a", "i64": -9223372036854775808, "dec": "-12345678901234567890.123456789012345678",
              "dbl": "nan", "flt": 0.1, "when": "2024-02-29T23:59:59.999999Z", "bytes": "AAEC", "payload": "eyJhIjoxfQ==",
              "id": "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "link": "https://example.com/?q=1", "flag": false}]}
            """
        let objects = try StoreArchive.importJSON(Data(json.utf8), into: container.viewContext)
        let item = try #require(objects.first)
        #expect(item.value(forKey: "i64", as: Int64.self) == .min)
        #expect(
            item.value(forKey: "dec", as: Decimal.self)
                == (try DecimalText.parse("-12345678901234567890.123456789012345678")))
        #expect(item.value(forKey: "dbl", as: Double.self)?.isNaN == true)
        #expect(item.value(forKey: "flt", as: Double.self) == Double(Float(0.1)))
        #expect(
            item.value(forKey: "when", as: Date.self)
                == (try DateText.parseISO8601("2024-02-29T23:59:59.999999Z")))
        #expect(item.value(forKey: "bytes", as: Data.self) == Data([0, 1, 2]))
        #expect(
            item.value(forKey: "id", as: UUID.self)?.uuidString
                == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(item.value(forKey: "flag", as: Bool.self) == false)
        // Transformable bytes are stored as given; Decimals as every digit.
        let row = try container.viewContext.storeConnection.query(
            "SELECT payload, dec, typeof(dbl), dbl FROM Item")
        #expect(row.first?[0] == .blob(Data(#"{"a":1}"#.utf8)))
        #expect(row.first?[1] == .text("-12345678901234567890.123456789012345678"))
        #expect(row.first?[3] == .text("NaN"))
    }

    @Test func derivedAttributesAreExportedAndRecomputedOnImport() throws {
        let container = try Self.container(everyTypeModel())
        let json = """
            {"Author": [{"@id": "a", "name": "García Márquez", "canonicalName": "ignored", "bookCount": 99}],
             "Book": [{"@id": "b", "title": "Cien años de soledad", "author": "a", "authorName": "ignored"}]}
            """
        try StoreArchive.importJSON(Data(json.utf8), into: container.viewContext)
        let exported = try StoreArchive.exportJSON(from: container.viewContext)
        #expect(exported.contains(#""canonicalName": "garcia marquez""#), "\(exported)")
        #expect(exported.contains(#""bookCount": 1"#))
        #expect(exported.contains(#""authorName": "García Márquez""#))
    }

    // MARK: - Relationships

    @Test func aRelationshipStatedOnOneSideGetsItsInverse() throws {
        let container = try Self.container(everyTypeModel())
        let json = """
            {"Author": [{"@id": "a", "name": "Lem"}, {"@id": "z", "name": "Zajdel", "books": ["b2"]}],
             "Book": [{"@id": "b1", "title": "Solaris", "author": "a"}, {"@id": "b2", "title": "Limes"}],
             "Ebook": [{"@id": "e1", "title": "Eden", "author": "a"}]}
            """
        try StoreArchive.importJSON(Data(json.utf8), into: container.viewContext)
        let exported = try StoreArchive.exportJSON(from: container.viewContext)
        #expect(
            exported.contains("\"books\": [\n        \"Book/p1\",\n        \"Ebook/p3\"\n      ]"),
            "\(exported)")
        #expect(exported.contains(#""author": "Author/p1""#))
        #expect(exported.contains(#""author": "Author/p2""#), "the to-one side of a to-many is filled in")
        #expect(exported.contains(#""bookCount": 1"#) && exported.contains(#""bookCount": 2"#))
    }

    @Test func sidesThatDisagreeAreRefused() throws {
        let container = try Self.container(everyTypeModel())
        let json = """
            {"Author": [{"@id": "a1", "name": "One"}, {"@id": "a2", "name": "Two", "books": ["b"]}],
             "Book": [{"@id": "b", "title": "T", "author": "a1"}]}
            """
        let error = try #require(throws: StoreArchiveError.self) {
            try StoreArchive.importJSON(Data(json.utf8), into: container.viewContext)
        }
        #expect(
            error.description
                == #"$.Book[0].author (@id "b"): the two sides of the relationship disagree: $.Author[1] (@id "a2") names this object in books, which author here does not name"#
        )
        #expect(!container.viewContext.hasChanges)
    }

    @Test func orderedReflexiveManyToManyAndInverselessRelationshipsRoundTrip() throws {
        let model = ManagedObjectModel {
            Entity("Employee") {
                Attribute("name", .string)
                Relationship("manager", to: "Employee", inverse: "reports")
                Relationship("reports", to: "Employee", inverse: "manager", toMany: true)
            }
            Entity("Playlist") {
                Attribute("name", .string)
                Relationship(
                    "tracks", to: "Track", inverse: "playlists", toMany: true, ordered: true)
                Relationship("cover", to: "Track")
                Relationship("favourites", to: "Track", toMany: true)
            }
            Entity("Track") {
                Attribute("title", .string)
                Relationship("playlists", to: "Playlist", inverse: "tracks", toMany: true)
            }
        }
        let json = """
            {"Employee": [{"@id": "boss", "name": "Ada"}, {"@id": "e1", "manager": "boss"}, {"@id": "e2", "manager": "boss"},
                          {"@id": "e3", "manager": "e2"}],
             "Playlist": [{"@id": "p", "tracks": ["t3", "t1", "t2"], "cover": "t2", "favourites": ["t1", "t3"]},
                          {"@id": "q", "tracks": ["t2", "t3"]}],
             "Track": [{"@id": "t1", "title": "One"}, {"@id": "t2", "title": "Two"}, {"@id": "t3", "title": "Three"}]}
            """
        let first = try Self.container(model)
        try StoreArchive.importJSON(Data(json.utf8), into: first.viewContext)
        let exported = try JSONValue.parse(
            Data(try StoreArchive.exportJSON(from: first.viewContext).utf8))
        let text = ArchiveDocuments.normalized(exported)
        func members(_ entity: String, _ index: Int) -> String {
            guard case .object(let groups) = exported,
                case .array(let items)? = groups.first(where: { $0.0 == entity })?.1,
                index < items.count
            else { return "" }
            return items[index].rendered()
        }
        #expect(
            members("Playlist", 0).contains(
                "\"tracks\": [\n    \"Track/p3\",\n    \"Track/p1\",\n    \"Track/p2\"\n  ]"),
            "\(text)")
        #expect(members("Playlist", 0).contains("\"cover\": \"Track/p2\""))
        #expect(
            members("Playlist", 0).contains(
                "\"favourites\": [\n    \"Track/p1\",\n    \"Track/p3\"\n  ]"))
        #expect(
            members("Track", 1).contains(
                "\"playlists\": [\n    \"Playlist/p1\",\n    \"Playlist/p2\"\n  ]"))
        #expect(
            members("Employee", 0).contains(
                "\"reports\": [\n    \"Employee/p2\",\n    \"Employee/p3\"\n  ]"))
        #expect(members("Employee", 3).contains("\"manager\": \"Employee/p3\""))

        let second = try Self.container(model)
        try StoreArchive.importJSON(Data(exported.rendered().utf8), into: second.viewContext)
        let again = try JSONValue.parse(
            Data(try StoreArchive.exportJSON(from: second.viewContext).utf8))
        #expect(ArchiveDocuments.normalized(again) == text)
    }

    // MARK: - Errors

    @Test(arguments: [
        (#"{"Item": [}"#, "line 1, column 11: malformed JSON: expected a value, found '}'"),
        ("[]", "$: expected an object with an array of objects per entity name, got an array"),
        (
            #"{"Itme": []}"#,
            "$.Itme: the model has no entity named 'Itme' (its entities: Author, Book, Ebook, Item)"
        ),
        (#"{"Item": {}}"#, "$.Item: expected an array of Item objects, got an object"),
        (
            #"{"Item": [{"@id": "i", "cod": "x"}]}"#,
            #"$.Item[0].cod (@id "i"): Item has no property named 'cod' (its properties: bytes, code, dbl, dec, flag, flt, i16, i32, i64, id, link, payload, scratch, str, when)"#
        ),
        (
            #"{"Item": [{"i16": "12"}]}"#,
            #"$.Item[0].i16: expected a number (Integer 16), got a string ("12")"#
        ),
        (
            #"{"Item": [{"i64": 1.5}]}"#,
            "$.Item[0].i64: expected an integer for Integer 64, got 1.5"
        ),
        (
            #"{"Item": [{"i64": 9223372036854775808}]}"#,
            "$.Item[0].i64: 9223372036854775808 is outside the range of Integer 64"
        ),
        (
            #"{"Item": [{"dbl": "Infinity"}]}"#,
            #"$.Item[0].dbl: expected a number, or "inf", "-inf" or "nan", for Double, got "Infinity""#
        ),
        (#"{"Item": [{"when": "2024-02-30T00:00:00Z"}]}"#, "$.Item[0].when: "),
        (#"{"Item": [{"dec": "19,99"}]}"#, "$.Item[0].dec: "),
        (
            #"{"Item": [{"bytes": "not base64!"}]}"#,
            #"$.Item[0].bytes: expected base64 text for Binary, got "not base64!""#
        ),
        (#"{"Item": [{"id": "nope"}]}"#, #"$.Item[0].id: "nope" is not a UUID"#),
        (#"{"Item": [{"@id": 3}]}"#, "$.Item[0].@id: expected a non-empty string, got 3"),
        (
            #"{"Item": [{"@id": "i", "code": "a"}, {"@id": "i", "code": "b"}]}"#,
            #"$.Item[1] (@id "i"): the @id is already used by $.Item[0]"#
        ),
        (
            #"{"Item": [{"code": "a", "code": "b"}]}"#,
            "$.Item[0].code: the key appears twice in the object"
        ),
        (
            #"{"Book": [{"@id": "b", "title": "T", "author": "a9"}]}"#,
            #"$.Book[0].author (@id "b"): no object in the document has @id "a9""#
        ),
        (
            #"{"Book": [{"@id": "b", "title": "T", "author": ["a"]}]}"#,
            #"$.Book[0].author (@id "b"): expected an @id string or null for the to-one author, got an array"#
        ),
        (
            #"{"Author": [{"name": "A", "books": "b"}]}"#,
            "$.Author[0].books: expected an array of @id strings for the to-many books, got a string"
        ),
        (
            #"{"Item": [{"@id": "i", "code": "c"}], "Book": [{"title": "T", "author": "i"}]}"#,
            "$.Book[0].author: expected a Author, got a Item"
        ),
    ])
    func badDocumentsNameThePlaceAndChangeNothing(_ json: String, _ message: String) throws {
        let container = try Self.container(everyTypeModel())
        let context = container.viewContext
        let error = try #require(throws: StoreArchiveError.self) {
            try StoreArchive.importJSON(Data(json.utf8), into: context)
        }
        #expect(error.description.hasPrefix(message), "\(error)")
        #expect(!context.hasChanges)
        for table in ["Item", "Author", "Book"] {
            #expect(try Self.count(table, in: context) == 0)
        }
    }

    @Test func validationFailuresNameTheDocumentPlace() throws {
        let container = try Self.container(everyTypeModel())
        let context = container.viewContext
        try StoreArchive.importJSON(Data(#"{"Book": [{"title": "Kept"}]}"#.utf8), into: context)
        let json =
            #"{"Book": [{"@id": "b1", "title": "Hi!"}, {"title": "ok", "price": "-1"}, {"price": "1"}]}"#
        let error = try #require(throws: ValidationError.self) {
            try StoreArchive.importJSON(Data(json.utf8), into: context)
        }
        #expect(
            Set(error.failures.map(\.description)) == [
                #"$.Book[0] (@id "b1"): Book.title "Hi!" must match /[^!]*/ (validation error 1680)"#,
                "$.Book[1]: Book.price -1 must be at least 0 (validation error 1620)",
                "$.Book[2]: Book.title nil is required (validation error 1570)",
            ])
        #expect(!context.hasChanges)
        #expect(
            try context.fetch(FetchRequest(entityName: "Book")).map { $0.value(forKey: "title", as: String.self) }
                == ["Kept"])
    }

    @Test func aUniquenessConflictNamesTheDocumentPlace() throws {
        let container = try Self.container(everyTypeModel())
        let context = container.viewContext
        try StoreArchive.importJSON(Data(#"{"Item": [{"code": "taken"}]}"#.utf8), into: context)
        let error = try #require(throws: ConstraintConflictError.self) {
            try StoreArchive.importJSON(
                Data(#"{"Item": [{"code": "free"}, {"@id": "x", "code": "taken"}]}"#.utf8),
                into: context)
        }
        #expect(error.object == #"$.Item[1] (@id "x")"#)
        #expect(try Self.count("Item", in: context) == 1)
    }

    @Test func importRefusesAContextWithUnsavedChanges() throws {
        let container = try Self.container(everyTypeModel())
        let author = try container.viewContext.insertObject(forEntityName: "Author")
        author["name"] = "Mine"
        #expect(throws: StoreArchiveError.self) {
            try StoreArchive.importJSON(Data("{}".utf8), into: container.viewContext)
        }
        #expect(
            container.viewContext.insertedObjects.count == 1, "the caller's change was discarded")
    }

    // MARK: - Deleting

    @Test func deletingCascadesAndReturnsEveryDeletedObject() throws {
        let context = try Self.libraryContext()
        let deleted = try StoreArchive.deleteObjects(withIDs: ["Owner/p1"], from: context)
        #expect(
            deleted.map(\.description) == [
                "Owner/p1", "Shelf/p1", "Shelf/p2", "Volume/p1", "Volume/p2",
            ])
        #expect(try Self.count("Volume", in: context) == 1)
        #expect(try Self.count("Loan", in: context) == 1)
    }

    @Test func denyRefusesUntilTheRelationshipIsEmptied() throws {
        let context = try Self.libraryContext()
        let error = try #require(throws: ValidationError.self) {
            try StoreArchive.deleteObjects(withIDs: ["Volume/p2", "Volume/p3"], from: context)
        }
        #expect(
            error.description
                == "Validation failed: Volume/p3: Volume.loans (1 objects) must be empty for the object to be deleted (delete rule Deny) (validation error 1600)"
        )
        #expect(!context.hasChanges)
        #expect(try Self.count("Volume", in: context) == 3)
        try StoreArchive.deleteObjects(withIDs: ["Loan/1"], from: context)
        #expect(
            try StoreArchive.deleteObjects(withIDs: ["Volume/p3"], from: context).map(\.description)
                == ["Volume/p3"])
    }

    /// The seed ("Configuring relationships"): an optional to-many may be empty whatever its
    /// minimum count; when it is not empty, its count must lie within the bounds.
    @Test func aCountBelowTheMinimumRefusesTheDelete() throws {
        let context = try Self.libraryContext()
        // Owner/p2's only shelf goes: its optional `shelves` (at least 1) may be empty.
        #expect(try StoreArchive.deleteObjects(withIDs: ["Shelf/p3"], from: context).map(\.description) == ["Shelf/p3"])
        #expect(try Self.count("Shelf", in: context) == 2)
        // Owner/p1 keeps one of its two shelves, below a minimum of 2: refused.
        let strict = try Self.container(ArchiveDocuments.libraryModel(minimumShelves: 2)).viewContext
        try StoreArchive.importJSON(Data(ArchiveDocuments.libraryJSONWithAnOwnerWithoutShelves.utf8), into: strict)
        let error = try #require(throws: ValidationError.self) {
            try StoreArchive.deleteObjects(withIDs: ["Shelf/p1"], from: strict)
        }
        #expect(error.failures.map(\.rule) == [.relationshipLacksMinimumCount])
        #expect(error.failures.first?.object == "Owner/p1")
        #expect(try Self.count("Shelf", in: strict) == 3)
    }

    @Test(arguments: [
        ("Shelf", "Shelf: is not an object ID: expected Entity/p<key>, as store export writes @id"),
        (
            "Shelf/px",
            "Shelf/px: is not an object ID: expected Entity/p<key>, as store export writes @id"
        ),
        ("Nope/p1", "Nope/p1: the model has no entity named 'Nope'"),
        ("Shelf/p99", "Shelf/p99: there is no Shelf with this ID in the store"),
    ])
    func badIDsDeleteNothing(_ id: String, _ message: String) throws {
        let context = try Self.libraryContext()
        let error = try #require(throws: StoreArchiveError.self) {
            try StoreArchive.deleteObjects(withIDs: ["Loan/p1", id, "Owner/p1"], from: context)
        }
        #expect(error.description == message)
        #expect(!context.hasChanges)
        #expect(try Self.count("Loan", in: context) == 1)
    }

    // MARK: - Helpers

    /// How many objects of `entity` (with its sub-entities) the store holds.
    static func count(_ entity: String, in context: ManagedObjectContext) throws -> Int {
        try context.count(for: FetchRequest(entityName: entity))
    }

    static func container(_ model: ManagedObjectModel) throws -> PersistentContainer {
        try PersistentContainer(model: model, storeURL: nil)
    }

    /// Owners with shelves (Cascade, at least one), shelves with volumes (Cascade), volumes
    /// with loans (Deny): Owner/p1 has Shelf/p1 (Volume/p1) and Shelf/p2 (Volume/p2);
    /// Owner/p2 has Shelf/p3; Volume/p3 is on no shelf and lent as Loan/p1.
    static func libraryContext() throws -> ManagedObjectContext {
        let context = try container(ArchiveDocuments.libraryModel()).viewContext
        try StoreArchive.importJSON(Data(ArchiveDocuments.libraryJSON.utf8), into: context)
        return context
    }
}
