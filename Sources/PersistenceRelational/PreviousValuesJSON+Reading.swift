import Foundation
import PersistenceModel
import PersistenceStore

extension PreviousValuesJSON {
    /// The previous values a change's JSON holds, typed by `schema`, the rules of reading
    /// them the same for every store that writes this JSON: a name the entity no longer has
    /// (renamed or removed by a migration) is left out; each value must be text or null (a
    /// number or an array, a hand-edited history, is refused rather than read as no value);
    /// a to-one's text is its destination's key (no key, no destination); a to-many's is
    /// its list of keys (`linkKeys`), read only for the to-manys `keepsLinks` admits (those
    /// the store records) and refused when it is not such a list.
    ///
    /// - Parameters:
    ///   - store: The store whose IDs the relationships' values name.
    ///   - attribute: An attribute's value from its text as the store wrote it (nil: NULL).
    ///   - corrupt: The store's error for `attribute` (a property name, or "(previous
    ///     values)" for the whole text) holding what `found` describes.
    package static func values(
        _ json: String, of schema: EntitySchema, in store: some PersistentStore,
        keepsLinks: (RelationshipDescription) -> Bool,
        attribute decode: (String?, AttributeDescription) throws -> AttributeValue,
        corrupt: (_ attribute: String, _ found: String) -> any Error
    ) throws -> [String: PersistentHistoryValue] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw corrupt("(previous values)", "text that is not a JSON object")
        }
        var values: [String: PersistentHistoryValue] = [:]
        for (name, value) in object {
            guard let position = schema.propertyIndex[name] else { continue }
            let text = value as? String
            guard text != nil || value is NSNull else { throw corrupt(name, "non-text history") }
            switch schema.properties[position] {
            case .attribute(let attribute):
                values[name] = .attribute(try decode(text, attribute))
            case .relationship(let relationship) where relationship.isToMany:
                guard keepsLinks(relationship) else { continue }
                guard let text, let keys = linkKeys(text),
                    let destination = store.model.schema(for: relationship.destinationEntityName)
                else { throw corrupt(name, "malformed history link list") }
                let scope = store.idScope(entityName: destination.name, rootName: destination.rootName)
                values[name] = .objects(keys.map { ObjectID(scope: scope, key: .permanent($0)) })
            case .relationship(let relationship):
                guard let text, let key = Int64(text), let destination = store.model.schema(for: relationship.destinationEntityName)
                else {
                    values[name] = .object(nil)
                    continue
                }
                let scope = store.idScope(entityName: destination.name, rootName: destination.rootName)
                values[name] = .object(ObjectID(scope: scope, key: .permanent(key)))
            }
        }
        return values
    }
}
