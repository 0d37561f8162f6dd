import Foundation
import Persistence

extension Book {
    /// The names of the book's tags, in ``BookInput/tagOrder(_:_:)``.
    public var tagNames: [String] { tags.map(\.name).sorted(by: BookInput.tagOrder) }
}

extension Catalog {
    /// Every tag, by the canonical form of its name (``CanonicalText/fold(_:)``).
    func tagsByCanonicalName() throws -> [String: Tag] {
        var result: [String: Tag] = [:]
        for case let tag as Tag in try context.fetch(FetchRequest(entityName: "Tag")) {
            result[tag.canonicalName ?? CanonicalText.fold(tag.name)] = tag
        }
        return result
    }

    /// The tag whose name has the canonical form of `name`, made (named as given) when there
    /// is none: a catalogue has one tag for "SciFi", "scifi" and "SCIFI", named as first
    /// typed, as its unique name requires.
    func tag(named name: String, in tags: inout [String: Tag]) -> Tag {
        let key = CanonicalText.fold(name)
        if let tag = tags[key] { return tag }
        guard let tag = try? context.insert(Tag.self) else {
            preconditionFailure("Tag is registered in the catalogue's container")
        }
        tag.name = name
        tags[key] = tag
        return tag
    }

    /// Gives `book` exactly the tags `names` name, deleting those it leaves without books.
    func setTags(_ names: [String], of book: Book, tags: inout [String: Tag]) {
        let wanted = Set(names.map(CanonicalText.fold))
        for tag in book.tags where !wanted.contains(tag.canonicalName ?? CanonicalText.fold(tag.name)) {
            removeTag(tag, from: book, tags: &tags)
        }
        for name in names { addTag(name, to: book, tags: &tags) }
    }

    /// Tags `book` with the tag `name` names, made if new.
    func addTag(_ name: String, to book: Book, tags: inout [String: Tag]) {
        let tag = tag(named: name, in: &tags)
        if !book.tags.contains(tag) { book.addToTags(tag) }
    }

    /// Takes the tag `name` names off `book` (nothing when the book does not have it).
    func removeTag(named name: String, from book: Book, tags: inout [String: Tag]) {
        let key = CanonicalText.fold(name)
        for tag in book.tags where (tag.canonicalName ?? CanonicalText.fold(tag.name)) == key {
            removeTag(tag, from: book, tags: &tags)
        }
    }

    private func removeTag(_ tag: Tag, from book: Book, tags: inout [String: Tag]) {
        book.removeFromTags(tag)
        // A tag is a name some books share: with none left, it is gone.
        if tag.books.isEmpty {
            tags[tag.canonicalName ?? CanonicalText.fold(tag.name)] = nil
            context.delete(tag)
        }
    }
}
