import PersistenceModel
import PersistenceStore
extension ManagedObject {
    // MARK: - Relationships by position

    /// A to-one relationship's destination read by position, as generated getters read it:
    /// `object(at: 6, forKey: "author")`. As for attributes (see
    /// `value(at:forKey:default:)`), the name at the position is checked, and the
    /// relationship is found by name when it is elsewhere; nil for an unknown key.
    public func object(at position: Int, forKey key: String) -> ManagedObject? {
        guard let position = self.position(position, ofKey: key) else { return nil }
        return object(at: position)
    }

    /// A to-many relationship's destinations read by position (see `object(at:forKey:)`);
    /// empty for an unknown key.
    public func objects(at position: Int, forKey key: String) -> [ManagedObject] {
        guard let position = self.position(position, ofKey: key) else { return [] }
        return objects(at: position)
    }

    /// `position` when the entity's property there is named `key`, else `key`'s position.
    private func position(_ position: Int, ofKey key: String) -> Int? {
        let names = schema.propertyNames
        if position >= 0, position < names.count, names[position] == key { return position }
        return schema.propertyIndex[key]
    }
}
