import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObjectContext {
    /// The objects of a registered class's entity (and its sub-entities) that match
    /// `predicate`, in the order `sortKeys` give, typed as the class.
    ///
    /// ```swift
    /// let cheap = try context.fetch(Book.self, where: Book.price < Decimal(10),
    ///                               sortedBy: [Book.title.ascending])
    /// ```
    ///
    /// - Throws: `FetchError` when `type` is registered for no entity, or when a fetched
    ///   object is not a `type` (its sub-entity's class is not a subclass of it); otherwise
    ///   as `fetch(_:)`.
    ///
    /// Inlinable, so that the objects are cast to `T` and gathered in an array by code
    /// specialised in the caller's module: called generically from another module, the
    /// `map` copied each object through `T`'s value witnesses, a tenth of a large fetch.
    @inlinable
    public func fetch<T: ManagedObject>(
        _ type: T.Type, where predicate: FetchPredicate? = nil, sortedBy sortKeys: [SortKey] = [],
        limit: Int? = nil
    ) throws -> [T] {
        let request = try fetchRequest(for: type, where: predicate, sortedBy: sortKeys, limit: limit)
        return try fetch(request).map { object in
            if let typed = object as? T { return typed }
            throw typeMismatch(object, expected: T.self, of: request)
        }
    }

    /// The number of objects of a registered class's entity that match `predicate`.
    ///
    /// - Throws: `FetchError` when `type` is registered for no entity; otherwise as
    ///   `count(for:)`.
    public func count<T: ManagedObject>(_ type: T.Type, where predicate: FetchPredicate? = nil)
        throws -> Int
    {
        try count(for: fetchRequest(for: type, where: predicate))
    }

    /// A fetch request for the entity `type` is registered for, to adjust further
    /// (`fetchOffset`, `fetchBatchSize`) before passing it to `fetch(_:)`.
    ///
    /// - Throws: `FetchError` when `type` is registered for no entity.
    public func fetchRequest<T: ManagedObject>(
        for type: T.Type, where predicate: FetchPredicate? = nil, sortedBy sortKeys: [SortKey] = [],
        limit: Int? = nil
    ) throws -> FetchRequest {
        guard let name = classes.first(where: { $0.value == type })?.key else {
            throw FetchError(
                entity: "\(type)",
                reason: "the class \(type) is registered for no entity; pass it in the "
                    + "container's classes")
        }
        return FetchRequest(
            entityName: name, predicate: predicate, sortDescriptors: sortKeys, fetchLimit: limit)
    }
}
