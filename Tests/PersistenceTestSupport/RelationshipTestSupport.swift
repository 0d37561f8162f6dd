import Foundation
import Persistence

/// A model with every kind of relationship, for the relationship suites:
///
/// - `Author.books` ↔ `Book.author`: one-to-many through the book's column;
/// - `Book.tags` ↔ `Tag.books`: many-to-many (one join table, `Book_tags`);
/// - `Book.related`: a to-many with no inverse (`Book_related`), reflexive;
/// - `Book.chapters` ↔ `Chapter.book`: an ordered to-many with a to-one inverse;
/// - `Playlist.songs` ↔ `Song.playlists`: a many-to-many ordered on both sides;
/// - `Employee.manager` ↔ `Employee.reports`: reflexive one-to-many; `Employee.friends`,
///   its own inverse; `Employee.mentors` ↔ `Employee.mentees`, reflexive many-to-many;
/// - `Box.items`: no inverse, to a destination with a sub-entity (`Gadget`).
package func relationshipModel(
    authorBooksRule: DeleteRule = .nullify, bookChaptersRule: DeleteRule = .cascade,
    tagMax: Int = 0
) -> ManagedObjectModel {
    ManagedObjectModel {
        Entity("Author") {
            Attribute("name", .string)
            Relationship("books", to: "Book", inverse: "author", toMany: true, deleteRule: authorBooksRule)
        }
        Entity("Book") {
            Attribute("title", .string)
            Relationship("author", to: "Author", inverse: "books")
            Relationship("tags", to: "Tag", inverse: "books", toMany: true, maxCount: tagMax)
            Relationship("related", to: "Book", toMany: true)
            Relationship("chapters", to: "Chapter", inverse: "book", toMany: true, ordered: true, deleteRule: bookChaptersRule)
        }
        Entity("Tag") {
            Attribute("name", .string)
            Relationship("books", to: "Book", inverse: "tags", toMany: true)
        }
        Entity("Chapter") {
            Attribute("name", .string)
            Relationship("book", to: "Book", inverse: "chapters")
        }
        Entity("Playlist") {
            Attribute("name", .string)
            Relationship("songs", to: "Song", inverse: "playlists", toMany: true, ordered: true)
        }
        Entity("Song") {
            Attribute("name", .string)
            Relationship("playlists", to: "Playlist", inverse: "songs", toMany: true, ordered: true)
        }
        Entity("Employee") {
            Attribute("name", .string)
            Relationship("manager", to: "Employee", inverse: "reports")
            Relationship("reports", to: "Employee", inverse: "manager", toMany: true)
            Relationship("friends", to: "Employee", inverse: "friends", toMany: true)
            Relationship("mentors", to: "Employee", inverse: "mentees", toMany: true)
            Relationship("mentees", to: "Employee", inverse: "mentors", toMany: true)
        }
        Entity("Box") {
            Attribute("name", .string)
            Relationship("items", to: "Item", toMany: true, deleteRule: .cascade)
        }
        Entity("Item") {
            Attribute("name", .string)
        }
        Entity("Gadget", parent: "Item") {
            Attribute("volts", .integer64)
        }
    }
}

extension ManagedObjectContext {
    /// Inserts an object of `entity` named `name`.
    package func make(_ entity: String, _ name: String) throws -> ManagedObject {
        let object = try insertObject(forEntityName: entity)
        try object.setValue(name, forKey: entity == "Book" ? "title" : "name")
        return object
    }

    /// The one object of `entity` named `name`.
    package func named(_ entity: String, _ name: String) throws -> ManagedObject {
        let key = entity == "Book" ? "title" : "name"
        let found = try fetch(FetchRequest(entityName: entity, predicate: try FetchPredicate("\(key) == %@", name)))
        guard found.count == 1 else { throw ObjectAccessError(entity: entity, key: name, reason: "found \(found.count)") }
        return found[0]
    }
}

/// The names of objects, in order.
package func names(_ objects: [ManagedObject]) -> [String] {
    objects.map { ($0["name"] ?? $0["title"]) as? String ?? "?" }
}
