import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObjectContext {
    /// The objects a typed descriptor selects, in its order, typed as its class (SwiftData's
    /// `ModelContext.fetch(_:)`).
    ///
    /// ```swift
    /// let cheap = try context.fetch(FetchDescriptor<Book>(
    ///     predicate: #Predicate { ($0.price ?? 0) < 10 }, sortBy: [SortDescriptor(\.title)]))
    /// ```
    ///
    /// The predicate and sort run in the store, as the equivalent ``FetchPredicate`` and
    /// ``SortKey``s would (see ``fetchRequest(for:)-(FetchDescriptor<T>)``).
    ///
    /// - Throws: ``TypedPredicateTranslationError`` for a predicate or key path no store can
    ///   run; otherwise as `fetch(Book.self, where:)`.
    @inlinable
    public func fetch<T: ManagedObject>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        let request = try fetchRequest(for: descriptor)
        // Specialised in the caller's module, as `fetch(_:where:sortedBy:limit:)` is.
        return try fetch(request).map { object in
            if let typed = object as? T { return typed }
            throw typeMismatch(object, expected: T.self, of: request)
        }
    }

    /// The objects a typed descriptor selects, with its predicate run in memory by
    /// Foundation's `Predicate.evaluate` when `evaluatingPredicateInMemory` is true: for a
    /// predicate no store can run (`$0.pages % 2 == 0`), asked for explicitly, never as a
    /// fallback. The store sorts and reads every object of the entity; the predicate, then
    /// the offset and limit, apply to them in memory. False is ``fetch(_:)-(FetchDescriptor<T>)``.
    ///
    /// - Throws: as ``fetch(_:)-(FetchDescriptor<T>)``, and whatever the predicate's
    ///   evaluation throws (a forced unwrap of nil).
    public func fetch<T: ManagedObject>(
        _ descriptor: FetchDescriptor<T>, evaluatingPredicateInMemory: Bool
    ) throws -> [T] {
        guard evaluatingPredicateInMemory, let predicate = descriptor.predicate else { return try fetch(descriptor) }
        var everything = descriptor
        everything.predicate = nil
        // The window is checked as the store would check it, then applied to the matches.
        _ = try fetchRequest(for: everything)
        everything.fetchLimit = nil
        everything.fetchOffset = nil
        let matching = try fetch(everything).filter { try predicate.evaluate($0) }
        let window = matching.dropFirst(descriptor.fetchOffset ?? 0)
        return Array(descriptor.fetchLimit.map { window.prefix($0) } ?? window)
    }

    /// The number of objects a typed descriptor selects (SwiftData's `fetchCount(_:)`),
    /// its limit and offset included; no object is made when there are no unsaved changes.
    ///
    /// - Throws: as ``fetch(_:)-(FetchDescriptor<T>)``.
    public func fetchCount<T: ManagedObject>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        try count(for: fetchRequest(for: descriptor))
    }

    /// The IDs of the objects a typed descriptor selects, in its order (SwiftData's
    /// `fetchIdentifiers(_:)`): only keys are read when there are no unsaved changes.
    ///
    /// - Throws: as ``fetch(_:)-(FetchDescriptor<T>)``.
    public func fetchIdentifiers<T: ManagedObject>(_ descriptor: FetchDescriptor<T>) throws -> [ObjectID] {
        try fetchObjectIDs(fetchRequest(for: descriptor))
    }

    /// Streams the objects a typed descriptor selects, in order, calling `body` with each
    /// until it returns false; rows become objects one at a time, as with `forEach(_:_:)`.
    ///
    /// - Throws: as ``fetch(_:)-(FetchDescriptor<T>)``, and whatever `body` throws.
    public func forEach<T: ManagedObject>(_ descriptor: FetchDescriptor<T>, _ body: (T) throws -> Bool) throws {
        let request = try fetchRequest(for: descriptor)
        try forEach(request) { object in try body(try typed(object, of: request)) }
    }

    /// Calls `block` with every object a typed descriptor selects, in order, streamed as
    /// ``forEach(_:_:)-(FetchDescriptor<T>,_)`` streams them (SwiftData's `enumerate(_:block:)`).
    ///
    /// - Throws: as ``fetch(_:)-(FetchDescriptor<T>)``, and whatever `block` throws.
    public func enumerate<T: ManagedObject>(_ descriptor: FetchDescriptor<T>, block: (T) throws -> Void) throws {
        try forEach(descriptor) { object in
            try block(object)
            return true
        }
    }

    /// The fetch request a typed descriptor stands for: its predicate translated into the
    /// library's tree, its sort descriptors into ``SortKey``s, its key paths into property
    /// names. Useful to see what a `#Predicate` becomes (`request.predicate?.description`)
    /// and to set what a descriptor has no field for (`fetchBatchSize`).
    ///
    /// - Throws: `FetchError` when `T` is registered for no entity;
    ///   ``TypedPredicateTranslationError`` naming the expression or key path that does not
    ///   translate.
    public func fetchRequest<T: ManagedObject>(for descriptor: FetchDescriptor<T>) throws -> FetchRequest {
        var request = try fetchRequest(for: T.self)
        request.predicate = try descriptor.predicate.map(TypedPredicateTranslator.translate)
        request.sortDescriptors = try descriptor.sortBy.map(Self.sortKey)
        request.fetchLimit = descriptor.fetchLimit
        request.fetchOffset = descriptor.fetchOffset ?? 0
        request.includesPendingChanges = descriptor.includePendingChanges
        request.propertiesToFetch = try descriptor.propertiesToFetch.map { try Self.propertyName($0, purpose: "fetch") }
        request.relationshipKeyPathsForPrefetching = try descriptor.relationshipKeyPathsForPrefetching.map {
            try Self.propertyName($0, purpose: "prefetch")
        }
        if let limit = request.fetchLimit, limit < 0 {
            throw FetchError(entity: request.entityName, reason: "the fetch limit \(limit) is negative")
        }
        if request.fetchOffset < 0 {
            throw FetchError(entity: request.entityName, reason: "the fetch offset \(request.fetchOffset) is negative")
        }
        return request
    }

    // MARK: - Internals

    /// `object` as a `T`, or an error saying which class was registered instead.
    func typed<T: ManagedObject>(_ object: ManagedObject, of request: FetchRequest) throws -> T {
        guard let typed = object as? T else { throw typeMismatch(object, expected: T.self, of: request) }
        return typed
    }

    /// The error of a fetched `object` that is not an `expected`: which class was registered
    /// for its entity instead.
    @usableFromInline
    func typeMismatch(_ object: ManagedObject, expected: ManagedObject.Type, of request: FetchRequest) -> FetchError {
        FetchError(
            entity: request.entityName,
            reason: "a fetched \(object.entityName) is a \(Swift.type(of: object)), not a \(expected); "
                + "register a subclass of \(expected) for \(object.entityName)")
    }

    /// The sort key of a `SortDescriptor`: its key path's property, ascending for
    /// `.forward`. Strings sort in the store's order whatever the comparator.
    static func sortKey<T: ManagedObject>(_ descriptor: SortDescriptor<T>) throws -> SortKey {
        guard let keyPath = descriptor.keyPath else {
            throw TypedPredicateTranslationError(
                root: "\(T.self)", expression: "SortDescriptor",
                reason: "it orders by a comparator, not a key path; a store sorts by key paths only")
        }
        return SortKey(try propertyName(keyPath, purpose: "sort by"), ascending: descriptor.order == .forward)
    }

    /// The property name of a key path of `T`, from its ``PropertyKeyPathNaming`` table.
    static func propertyName<T: ManagedObject>(_ keyPath: PartialKeyPath<T>, purpose: String) throws -> String {
        guard let name = KeyPathTableCache().table(for: T.self)[keyPath] else {
            throw TypedPredicateTranslationError(
                root: "\(T.self)", expression: TypedPredicateTranslator.name(ofKeyPath: keyPath),
                reason: "a key path to \(purpose) must name a property of \(T.self) (a key path through a "
                    + "relationship is not one): generate the class with persistence-codegen or list the key "
                    + "path in its propertyNamesByKeyPath")
        }
        return name
    }
}
