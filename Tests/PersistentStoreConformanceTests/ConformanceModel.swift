import Foundation
import Persistence
import PersistenceModel

/// The model every conformance test stores: a small library with each kind of relationship
/// a store must read, and a `Sample` entity with an attribute of every stored type.
///
/// - `Author.books` ↔ `Book.author`: a to-many read through its inverse to-one;
/// - `Book.tags` ↔ `Tag.books`: a many-to-many;
/// - `Shelf.books` ↔ `Book.shelves`: ordered on the shelf's side;
/// - `Ebook`: a sub-entity of `Book`, kept in its hierarchy's keys;
/// - `Author.canonicalName` and `Book.canonicalTitle`: derived and indexed for search;
/// - `Sample.owner` ↔ `Author.samples`: a to-one that may be empty.
///
/// Every entity has `n`, a serial number that names an object across stores and contexts.
/// Authors and books have `referenceKey`, left nil in the store under test: the in-memory
/// reference sets it to the key the store gave the same object, and sorts by it last, since
/// a store breaks ties by key and unsaved objects have none.
enum ConformanceModel {
    /// A fresh model (opening a store freezes the model it is given).
    static func make() -> ManagedObjectModel {
        ValueTransformers.register(TaggedTextTransformer(), forName: TaggedTextTransformer.name)
        return ManagedObjectModel {
            Entity("Author") {
                Attribute("n", .integer64)
                Attribute("name", .string)
                Attribute("referenceKey", .integer64)
                Attribute(
                    "canonicalName", .string, derived: "canonical:(name)", indexedBySpotlight: true)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
                Relationship("samples", to: "Sample", inverse: "owner", toMany: true)
            }
            Entity("Book") {
                Attribute("n", .integer64)
                Attribute("title", .string)
                Attribute("referenceKey", .integer64)
                Attribute(
                    "canonicalTitle", .string, derived: "canonical:(title)",
                    indexedBySpotlight: true)
                Attribute("year", .integer32)
                Attribute("price", .decimal)
                Attribute("rating", .double)
                Relationship("author", to: "Author", inverse: "books")
                Relationship("tags", to: "Tag", inverse: "books", toMany: true)
                Relationship("shelves", to: "Shelf", inverse: "books", toMany: true)
            }
            Entity("Ebook", parent: "Book") {
                Attribute("megabytes", .double)
            }
            Entity("Tag") {
                Attribute("n", .integer64)
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "tags", toMany: true)
            }
            Entity("Shelf") {
                Attribute("n", .integer64)
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "shelves", toMany: true, ordered: true)
            }
            Entity("Sample") {
                Attribute("n", .integer64)
                Attribute("i16", .integer16)
                Attribute("i32", .integer32)
                Attribute("i64", .integer64)
                Attribute("dbl", .double)
                Attribute("flt", .float)
                Attribute("dec", .decimal)
                Attribute("str", .string)
                Attribute("flag", .boolean)
                Attribute("when", .date)
                Attribute("bytes", .binaryData)
                Attribute("id", .uuid)
                Attribute("link", .uri)
                Attribute("payload", .transformable, transformer: TaggedTextTransformer.name)
                Attribute("scratch", .string, transient: true, default: "draft")
                Relationship("owner", to: "Author", inverse: "samples")
            }
        }
    }
}

/// A transformer for `Sample.payload`: a string as its UTF-8 bytes behind a marker, so that
/// a store that skipped the transformer would give back bytes, not the string.
struct TaggedTextTransformer: ValueTransforming {
    static let name = "ConformanceTaggedTextTransformer"
    private static let marker = Data("tagged:".utf8)

    struct Refused: Error {}

    func transformedValue(_ value: any Sendable) throws -> Data {
        guard let text = value as? String else { throw Refused() }
        return Self.marker + Data(text.utf8)
    }

    func reverseTransformedValue(_ data: Data) throws -> any Sendable {
        guard data.starts(with: Self.marker) else { throw Refused() }
        return String(decoding: data.dropFirst(Self.marker.count), as: UTF8.self)
    }
}
