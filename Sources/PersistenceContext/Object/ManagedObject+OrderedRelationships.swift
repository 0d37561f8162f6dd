import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObject {
    // MARK: - Ordered to-many

    /// Inserts `object` at `index` in an ordered to-many relationship, keeping the inverse in
    /// step. An object already in the relationship moves to `index` (an ordered relationship
    /// holds each object once, as `NSOrderedSet` does).
    ///
    /// Positions are stored in the relationship's join table and survive save and reopen.
    ///
    /// - Throws: `ObjectAccessError` for an unknown key, a relationship that is not an
    ///   ordered to-many, an index outside `0...count`, or a destination of the wrong entity
    ///   or another context.
    public func insertObject(_ object: ManagedObject, at index: Int, forKey key: String) throws {
        let position = try orderedPosition(key)
        var current = objects(at: position)
        if let existing = current.firstIndex(where: { $0 === object }) {
            current.remove(at: existing)
            guard (0...current.count).contains(index) else { throw indexError(key, index, current.count) }
            current.insert(object, at: index)
        } else {
            guard (0...current.count).contains(index) else { throw indexError(key, index, current.count) }
            current.insert(object, at: index)
        }
        try setObjects(current, at: position)
    }

    /// Moves the object at `from` to `to` in an ordered to-many relationship.
    ///
    /// - Throws: `ObjectAccessError` for an unknown key, a relationship that is not an
    ///   ordered to-many, or an index outside `0..<count`.
    public func moveObject(at from: Int, to: Int, forKey key: String) throws {
        let position = try orderedPosition(key)
        var current = objects(at: position)
        guard current.indices.contains(from) else { throw indexError(key, from, current.count - 1) }
        guard current.indices.contains(to) else { throw indexError(key, to, current.count - 1) }
        guard from != to else { return }
        let object = current.remove(at: from)
        current.insert(object, at: to)
        try setObjects(current, at: position)
    }

    /// Removes the object at `index` from an ordered to-many relationship, keeping the
    /// inverse in step, and returns it.
    ///
    /// - Throws: `ObjectAccessError` for an unknown key, a relationship that is not an
    ///   ordered to-many, or an index outside `0..<count`.
    @discardableResult
    public func removeObject(at index: Int, forKey key: String) throws -> ManagedObject {
        let position = try orderedPosition(key)
        var current = objects(at: position)
        guard current.indices.contains(index) else { throw indexError(key, index, current.count - 1) }
        let removed = current.remove(at: index)
        try setObjects(current, at: position)
        return removed
    }

    // MARK: - Internals

    private func orderedPosition(_ key: String) throws -> Int {
        guard let position = schema.propertyIndex[key] else {
            throw ObjectAccessError(entity: schema.name, key: key, reason: "\(schema.name) has no property named '\(key)'")
        }
        guard case .relationship(let r) = schema.properties[position], r.isToMany, r.isOrdered else {
            throw ObjectAccessError(
                entity: schema.name, key: key,
                reason: "\(key) is not an ordered to-many relationship; use addObject(_:forKey:) and removeObject(_:forKey:)")
        }
        return position
    }

    private func indexError(_ key: String, _ index: Int, _ last: Int) -> ObjectAccessError {
        ObjectAccessError(
            entity: schema.name, key: key,
            reason: last < 0 ? "index \(index) is out of range: the relationship is empty"
                : "index \(index) is out of range 0...\(last)")
    }
}
