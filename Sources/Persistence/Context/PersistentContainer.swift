import Foundation

/// A model, a store and a context in one: the way an app opens its data.
///
/// ```swift
/// let model = try ManagedObjectModel(contentsOf: modelURL)
/// let container = try PersistentContainer(model: model, storeURL: url, classes: ["Book": Book.self])
/// let book = try container.viewContext.insert(Book.self)
/// ```
///
/// Opening freezes the model. Register value transformers the model names before opening.
public final class PersistentContainer {
    /// The model.
    public let model: ManagedObjectModel
    /// The store file, or nil for an in-memory store.
    public let storeURL: URL?
    /// The main context.
    public let viewContext: ManagedObjectContext

    /// Opens the store at `storeURL` (creating it if the file does not exist), or an
    /// in-memory store when `storeURL` is nil.
    ///
    /// - Parameters:
    ///   - classes: the `ManagedObject` subclass for each entity that has one.
    ///   - readOnly: open an existing store without writing to it.
    /// - Throws: `ModelError` for an invalid model; `StoreError` for a missing directory,
    ///   a file that is not a Persistence store or was written with another model, or a
    ///   missing value transformer; `SQLiteError` for a file SQLite cannot open.
    public convenience init(
        model: ManagedObjectModel, storeURL: URL?, classes: [String: ManagedObject.Type] = [:],
        readOnly: Bool = false
    ) throws {
        var options = SQLiteStore.Options()
        options.readOnly = readOnly
        try self.init(model: model, storeURL: storeURL, classes: classes, options: options)
    }

    /// Opens a store with explicit store options (for tools).
    package init(
        model: ManagedObjectModel, storeURL: URL?, classes: [String: ManagedObject.Type], options: SQLiteStore.Options
    ) throws {
        for name in classes.keys where model.entity(named: name) == nil {
            throw ModelError(entity: name, "a class is registered for entity '\(name)', which the model does not have")
        }
        let store = try SQLiteStore(model: model, url: storeURL, options: options)
        self.model = model
        self.storeURL = storeURL
        self.viewContext = ManagedObjectContext(store: store, classes: classes)
    }
}
