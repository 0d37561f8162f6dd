import Foundation
import Persistence

/// A model with one attribute of every type, a parent/child pair and a to-one/to-many pair,
/// built in code for store and context tests.
package func everyTypeModel() -> ManagedObjectModel {
    ManagedObjectModel(entities: [
        EntityDescription(
            name: "Item",
            attributes: [
                AttributeDescription(name: "i16", type: .integer16),
                AttributeDescription(name: "i32", type: .integer32),
                AttributeDescription(name: "i64", type: .integer64),
                AttributeDescription(name: "dec", type: .decimal),
                AttributeDescription(name: "dbl", type: .double),
                AttributeDescription(name: "flt", type: .float),
                AttributeDescription(name: "str", type: .string),
                AttributeDescription(name: "flag", type: .boolean),
                AttributeDescription(name: "when", type: .date),
                AttributeDescription(name: "bytes", type: .binaryData),
                AttributeDescription(name: "id", type: .uuid),
                AttributeDescription(name: "link", type: .uri),
                AttributeDescription(name: "payload", type: .transformable),
                AttributeDescription(name: "scratch", type: .string, isTransient: true),
                AttributeDescription(name: "code", type: .string, isOptional: false, defaultValueString: "none"),
            ],
            uniquenessConstraints: [["code"]]),
        EntityDescription(
            name: "Author",
            attributes: [
                AttributeDescription(name: "name", type: .string, isOptional: false, minValueString: "1", maxValueString: "20"),
                AttributeDescription(name: "canonicalName", type: .string, derivationExpression: "canonical:(name)"),
                AttributeDescription(name: "bookCount", type: .integer64, derivationExpression: "books.@count"),
            ],
            relationships: [
                RelationshipDescription(name: "books", destination: "Book", inverse: "author", deleteRule: .deny, isToMany: true)
            ]),
        EntityDescription(
            name: "Book",
            attributes: [
                AttributeDescription(name: "title", type: .string, isOptional: false, regularExpressionString: "[^!]*"),
                AttributeDescription(name: "price", type: .decimal, minValueString: "0"),
                AttributeDescription(name: "authorName", type: .string, derivationExpression: "author.name"),
                AttributeDescription(name: "isbn", type: .string, preservesValueInHistoryOnDeletion: true),
            ],
            relationships: [RelationshipDescription(name: "author", destination: "Author", inverse: "books")]),
        EntityDescription(
            name: "Ebook", parent: "Book",
            attributes: [AttributeDescription(name: "megabytes", type: .double)]),
    ])
}

/// A temporary store file path, removed when dropped with its WAL files, its external data
/// files, and the copy a migration keeps beside it (with that copy's own).
package final class TemporaryStore {
    package let url: URL

    package init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite")
    }

    deinit {
        for store in [url.path, StoreMigrator.backupURL(for: url).path] {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: store + suffix)
            }
            let externalData = URL(fileURLWithPath: ExternalDataStore.directory(forStorePath: store))
            try? FileManager.default.removeItem(at: externalData.deletingLastPathComponent())
        }
    }

    /// What another process finds in the store file: a context of a fresh read-only
    /// container, so that a test sees what was saved, not what a context remembers.
    package func reader(_ model: ManagedObjectModel) throws -> ManagedObjectContext {
        try PersistentContainer(model: model, storeURL: url, readOnly: true).viewContext
    }

    /// How many objects of `entity` (with its sub-entities) are saved in the file, matching
    /// `predicate` when given, as a fresh read-only container counts them.
    package func count(_ entity: String, _ model: ManagedObjectModel, where predicate: String? = nil) throws -> Int {
        let request = FetchRequest(entityName: entity, predicate: try predicate.map { try FetchPredicate($0) })
        return try reader(model).count(for: request)
    }

    /// The string attributes `keys` of each saved object of `entity`, sorted by `sortedBy`
    /// (or the first key), as a fresh read-only container fetches them.
    package func strings(
        _ keys: [String], of entity: String, _ model: ManagedObjectModel, where predicate: String? = nil,
        sortedBy sortKey: String? = nil
    ) throws -> [[String?]] {
        try read(entity, model, where: predicate, sortedBy: sortKey ?? keys[0]) { object in
            keys.map { object.value(forKey: $0, as: String.self) }
        }
    }

    /// The attribute `key` of each saved object of `entity` as a `T`, sorted by `sortedBy`
    /// (or `key`), as a fresh read-only container fetches them.
    package func values<T: AttributeValueConvertible>(
        _ key: String, as type: T.Type, of entity: String, _ model: ManagedObjectModel,
        where predicate: String? = nil, sortedBy sortKey: String? = nil
    ) throws -> [T?] {
        try read(entity, model, where: predicate, sortedBy: sortKey ?? key) { $0.value(forKey: key, as: T.self) }
    }

    /// Fetches with a fresh read-only container and reads each object while its context is
    /// alive (an object does not keep its context).
    private func read<Value>(
        _ entity: String, _ model: ManagedObjectModel, where predicate: String?, sortedBy sortKey: String,
        _ body: (ManagedObject) -> Value
    ) throws -> [Value] {
        let request = FetchRequest(
            entityName: entity, predicate: try predicate.map { try FetchPredicate($0) },
            sortDescriptors: [SortKey(sortKey)])
        let context = try reader(model)
        return try withExtendedLifetime(context) { try context.fetch(request).map(body) }
    }
}
