import PersistenceModel

/// A key path of a dictionary result (`FetchRequest.propertiesToFetch`), checked against the
/// model: zero or more to-one relationships, then a stored attribute or a to-one
/// relationship, each step by its property position (which sub-entities share).
package struct StoredKeyPath: Sendable {
    /// The key path as written.
    package let keyPath: String
    /// The property position of each step in the entity it is read from.
    package let positions: [Int]
    /// Whether the last step is a to-one relationship (its value is the destination's ID).
    package let endsInRelationship: Bool

    /// Resolves `keyPath` from `entity`.
    ///
    /// - Throws: `FetchError` for an unknown or transient property, a to-many step, or a
    ///   key path that goes on past an attribute.
    package init(_ keyPath: String, entity: EntitySchema, model: ManagedObjectModel) throws {
        func failure(_ reason: String) -> FetchError { FetchError(entity: entity.name, reason: reason) }
        let steps = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        var positions: [Int] = []
        var endsInRelationship = false
        for (index, step) in steps.enumerated() {
            guard let position = current.propertyIndex[step] else {
                throw failure("\(current.name) has no property named '\(QuotedText.excerpt(step))'")
            }
            let property = current.properties[position]
            guard !property.isTransient else {
                throw failure("\(step) is transient: it is not stored, so it cannot be fetched or sorted on")
            }
            positions.append(position)
            let isLast = index == steps.count - 1
            switch property {
            case .attribute:
                guard isLast else {
                    throw failure("'\(QuotedText.excerpt(keyPath))' continues past the attribute \(step)")
                }
            case .relationship(let relationship):
                guard !relationship.isToMany else {
                    throw failure("'\(QuotedText.excerpt(keyPath))' goes through the to-many relationship \(step)")
                }
                guard let destination = model.schema(for: relationship.destinationEntityName) else {
                    throw failure("unknown destination of \(step)")
                }
                endsInRelationship = isLast
                current = destination
            }
        }
        self.keyPath = keyPath
        self.positions = positions
        self.endsInRelationship = endsInRelationship
    }

    /// The value of the key path in `row`, reading related rows through `related`: `.null`
    /// when a to-one on the way has no destination (or a dangling one).
    package func value(in row: StoreRow, related: (ObjectID) throws -> StoreRow?) rethrows -> StoredSlot {
        var slots = row.slots
        for position in positions.dropLast() {
            guard position < slots.count, case .toOneFault(let id?) = slots[position], let next = try related(id) else {
                return .value(.null)
            }
            slots = next.slots
        }
        guard let last = positions.last, last < slots.count else { return .value(.null) }
        return slots[last]
    }
}
