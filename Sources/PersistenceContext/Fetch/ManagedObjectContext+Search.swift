import PersistenceModel
extension ManagedObjectContext {
    /// A fetch request's search applied in memory, to objects already filtered by its
    /// predicate and sorted by its sort descriptors: the objects that match `searchText`,
    /// best rank first, the sort order kept within a rank. This is how a fetch with unsaved
    /// changes searches; the store answers the same from its indexes otherwise.
    ///
    /// It reads the searched attributes' current values and folds them, except that a
    /// `canonical:(x)` attribute, which a save computes, is read as the folded current
    /// value of `x`: an unsaved object is found as it will be found once saved.
    ///
    /// - Throws: `FetchError` for a search key path that cannot be searched.
    func searched(_ request: FetchRequest, _ objects: [ManagedObject]) throws -> [ManagedObject] {
        guard let text = request.searchText else { return objects }
        let search = SearchText(text)
        guard !search.words.isEmpty else { return [] }
        let keyPaths = try persistentStoreCoordinator.read { try $0.searchedKeyPaths(for: request) }
        var ranked: [(rank: Int, position: Int, object: ManagedObject)] = []
        for (position, object) in objects.enumerated() {
            let fields = try keyPaths.map { keyPath -> String in
                guard case .string(let value) = try Self.keyPathValue(object, keyPath) else { return "" }
                return CanonicalText.fold(value)
            }
            guard search.matches(fields) else { continue }
            ranked.append((search.rank(fields), position, object))
        }
        ranked.sort { ($0.rank, $0.position) < ($1.rank, $1.position) }
        return ranked.map(\.object)
    }
}
