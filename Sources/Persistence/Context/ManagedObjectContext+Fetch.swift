extension ManagedObjectContext {
    /// The objects a request selects, in order. Objects deleted in this context are left
    /// out.
    ///
    /// - Throws: `FetchError` for an unknown entity or key or a transient key;
    ///   `SQLiteError` when the store cannot be read.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        var result: [ManagedObject] = []
        try forEach(request) { object in
            result.append(object)
            return true
        }
        return result
    }

    /// Streams the objects a request selects, in order, calling `body` with each until it
    /// returns false. Rows become objects one at a time: objects the caller does not keep
    /// are released, so memory stays bounded however many rows match.
    ///
    /// - Throws: as `fetch(_:)`, and whatever `body` throws.
    public func forEach(_ request: FetchRequest, _ body: (ManagedObject) throws -> Bool) throws {
        var compiler = try FetchCompiler(schema: store.schema, entityName: request.entityName)
        let query = try compiler.query(for: request)
        try store.rows(query) { row in
            let object = self.object(for: row)
            if object.isDeleted { return true }
            return try body(object)
        }
    }

    /// The number of objects a request would fetch.
    ///
    /// - Throws: as `fetch(_:)`.
    public func count(for request: FetchRequest) throws -> Int {
        var compiler = try FetchCompiler(schema: store.schema, entityName: request.entityName)
        var query = try compiler.query(for: request)
        query.ordering = nil
        return try store.count(query)
    }
}
