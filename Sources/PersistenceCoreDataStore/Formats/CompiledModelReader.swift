import Foundation
import PersistenceModel

/// Reads an archived `NSManagedObjectModel` (see `CompiledModel` for the keys).
struct CompiledModelReader {
    private let archive: KeyedArchive

    init(archive: KeyedArchive) {
        self.archive = archive
    }

    // MARK: - Model

    mutating func readModel() throws -> ManagedObjectModel {
        let root = try object(at: try archive.topUID(), "the root object")
        guard root.classNames.contains("NSManagedObjectModel") else {
            throw Self.error(
                at: "object \(root.uid) (\(root.className))",
                "the root is not an NSManagedObjectModel")
        }
        let entityObjects = try entries(of: "NSEntities", in: root).map { name, value in
            guard case .object(let entity) = value,
                entity.classNames.contains("NSEntityDescription")
            else {
                throw Self.error(at: "NSEntities, entity \(name)", "not an NSEntityDescription")
            }
            return entity
        }
        var propertyNames: [UInt64: Set<String>] = [:]
        for entity in entityObjects {
            propertyNames[entity.uid] = Set(try entries(of: "NSProperties", in: entity).map(\.key))
        }
        var entities: [EntityDescription] = []
        for entity in entityObjects {
            entities.append(try readEntity(entity, propertyNames: propertyNames))
        }
        var versionIdentifier: String?
        switch try archive.decodeField("NSVersionIdentifiers", of: root) {
        case .set(let identifiers)?, .array(let identifiers)?:
            let names = identifiers.compactMap { value -> String? in
                if case .string(let name) = value { return name }
                return nil
            }
            if names.count == 1 { versionIdentifier = names[0] }
        default: break
        }
        return ManagedObjectModel(
            entities: entities.sorted { $0.name < $1.name }, versionIdentifier: versionIdentifier)
    }

    // MARK: - Entities

    private func readEntity(_ entity: ArchivedObject, propertyNames: [UInt64: Set<String>]) throws
        -> EntityDescription
    {
        let name = try requiredString("NSEntityName", of: entity)
        var description = EntityDescription(name: name)
        description.className = try string("NSClassNameForEntity", of: entity)
        description.isAbstract = try bool("NSIsAbstract", of: entity)
        var inherited: Set<String> = []
        if let parent = try reference("NSSuperentity", of: entity) {
            description.parentEntityName = try requiredString("NSEntityName", of: parent)
            inherited = propertyNames[parent.uid] ?? []
        }
        for (propertyName, value) in try entries(of: "NSProperties", in: entity).sorted(by: {
            $0.key < $1.key
        })
        where !inherited.contains(propertyName) {
            guard case .object(let property) = value else {
                throw Self.error(
                    at: "\(place(of: entity)), property \(propertyName)",
                    "not a property description")
            }
            if property.classNames.contains("NSRelationshipDescription") {
                description.relationships.append(try readRelationship(property, name: propertyName))
            } else if property.classNames.contains("NSAttributeDescription") {
                description.attributes.append(try readAttribute(property, name: propertyName))
            }
        }
        description.uniquenessConstraints = try stringLists("NSUniqueTuples", of: entity)
        description.userInfo = try userInfo(of: entity)
        description.versionHashModifier = try string("NSVersionHashModifier", of: entity)
        let renaming = try string("NSRenamingIdentifier", of: entity)
        description.renamingIdentifier = renaming == name ? nil : renaming
        return description
    }

    // MARK: - Properties

    private func readAttribute(_ property: ArchivedObject, name: String) throws
        -> AttributeDescription
    {
        let code = try integer("NSAttributeType", of: property) ?? 0
        guard let type = CompiledModel.attributeTypes[code] else {
            throw Self.error(
                at: "\(place(of: property)), field NSAttributeType",
                "unknown attribute type \(code)")
        }
        var attribute = AttributeDescription(name: name, type: type)
        attribute.isOptional = try bool("NSIsOptional", of: property)
        attribute.isTransient = try bool("NSIsTransient", of: property)
        attribute.isIndexedBySpotlight = try bool("NSIndexedBySpotlight", of: property)
        attribute.allowsCloudEncryption = try bool("NSAllowsCloudEncryption", of: property)
        attribute.isIndexed = try bool("NSIsIndexed", of: property)
        attribute.valueTransformerName = try string("NSValueTransformerName", of: property)
        if type == .transformable {
            attribute.customClassName = try string("NSAttributeValueClassName", of: property)
        }
        let flags = try integer("NSFlagsKey", of: property) ?? 0
        attribute.allowsExternalBinaryDataStorage = flags & 4 != 0
        attribute.preservesValueInHistoryOnDeletion = flags & 16 != 0
        if flags & 1 != 0 { attribute.maxValueString = try limit("NSMaxValueName", of: property) }
        if flags & 2 != 0 { attribute.minValueString = try limit("NSMinValueName", of: property) }
        if let value = try archive.decodeField("NSDefaultValue", of: property) {
            attribute.defaultValueString = Self.defaultValueString(value)
        }
        attribute.userInfo = try userInfo(of: property)
        attribute.versionHashModifier = try string("NSVersionHashModifier", of: property)
        let renaming = try string("NSRenamingIdentifier", of: property)
        attribute.renamingIdentifier = renaming == name ? nil : renaming
        return attribute
    }

    private func readRelationship(_ property: ArchivedObject, name: String) throws
        -> RelationshipDescription
    {
        let destination: String
        if let entity = try reference("NSDestinationEntity", of: property) {
            destination = try requiredString("NSEntityName", of: entity)
        } else {
            destination = try requiredString("_NSDestinationEntityName", of: property)
        }
        let ruleCode = try integer("NSDeleteRule", of: property) ?? 1
        guard let rule = CompiledModel.deleteRules[ruleCode] else {
            throw Self.error(
                at: "\(place(of: property)), field NSDeleteRule", "unknown delete rule \(ruleCode)")
        }
        // A to-many relationship without a limit is archived with a max count of 0 or, by
        // some Xcode versions, -1 (NSUIntegerMax read as signed): both mean no limit.
        let maxCount = max(0, Int(clamping: try integer("NSMaxCount", of: property) ?? 0))
        var inverse = try string("_NSInverseRelationshipName", of: property)
        if inverse == nil, let inverseObject = try reference("NSInverseRelationship", of: property)
        {
            inverse = try string("NSPropertyName", of: inverseObject)
        }
        let isToMany = maxCount != 1
        var relationship = RelationshipDescription(
            name: name, destination: destination, inverse: inverse, deleteRule: rule,
            isToMany: isToMany,
            isOrdered: try bool("NSIsOrdered", of: property),
            minCount: Int(clamping: try integer("NSMinCount", of: property) ?? 0),
            maxCount: maxCount, isOptional: try bool("NSIsOptional", of: property),
            isTransient: try bool("NSIsTransient", of: property))
        relationship.isIndexedBySpotlight = try bool("NSIndexedBySpotlight", of: property)
        relationship.userInfo = try userInfo(of: property)
        relationship.versionHashModifier = try string("NSVersionHashModifier", of: property)
        let renaming = try string("NSRenamingIdentifier", of: property)
        relationship.renamingIdentifier = renaming == name ? nil : renaming
        return relationship
    }

    /// A default value as Xcode writes it in `defaultValueString`: `YES`/`NO`, integers,
    /// reals, strings, dates as seconds since 2001-01-01, UUIDs, URLs.
    static func defaultValueString(_ value: ArchivedValue) -> String? {
        switch value {
        case .bool(let flag): return flag ? "YES" : "NO"
        case .integer(let number): return String(number)
        case .unsignedInteger(let number): return String(number)
        case .real(let number): return Self.text(of: number)
        case .string(let text): return text
        case .date(let date): return Self.text(of: date.timeIntervalSinceReferenceDate)
        case .uuid(let uuid): return uuid.uuidString
        case .url(let url): return url.absoluteString
        default: return nil
        }
    }

    private static func text(of number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    // MARK: - Fields

    private func place(of object: ArchivedObject) -> String {
        "object \(object.uid) (\(object.className))"
    }

    private func object(at uid: UInt64, _ context: String) throws -> ArchivedObject {
        do { return try archive.object(at: uid) } catch let error as CoreDataFormatError {
            throw Self.error(at: "\(context), \(error.location)", error.reason)
        }
    }

    /// The object a field refers to, or nil for `$null` or a missing field.
    private func reference(_ key: String, of object: ArchivedObject) throws -> ArchivedObject? {
        switch object.fields[key] {
        case nil, .uid(0)?: return nil
        case .uid(let uid)?: return try self.object(at: uid, "\(place(of: object)), field \(key)")
        case let other?:
            throw Self.error(
                at: "\(place(of: object)), field \(key)",
                "\(other.kindWithArticle), not a reference")
        }
    }

    private func decoded(_ key: String, of object: ArchivedObject) throws -> ArchivedValue? {
        do { return try archive.decodeField(key, of: object) } catch let error
            as CoreDataFormatError
        {
            throw Self.error(at: error.location, error.reason)
        }
    }

    private func string(_ key: String, of object: ArchivedObject) throws -> String? {
        switch try decoded(key, of: object) {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?:
            throw Self.error(
                at: "\(place(of: object)), field \(key)", "\(Self.kind(other)), not a string")
        }
    }

    private func requiredString(_ key: String, of object: ArchivedObject) throws -> String {
        guard let text = try string(key, of: object) else {
            throw Self.error(at: "\(place(of: object)), field \(key)", "missing")
        }
        return text
    }

    private func bool(_ key: String, of object: ArchivedObject) throws -> Bool {
        switch object.fields[key] {
        case nil: return false
        case .bool(let flag)?: return flag
        case .integer(let number)?: return number != 0
        case let other?:
            throw Self.error(
                at: "\(place(of: object)), field \(key)", "\(other.kindWithArticle), not a Boolean")
        }
    }

    /// A minimum or maximum, as the model file writes it.
    private func limit(_ key: String, of object: ArchivedObject) throws -> String? {
        switch object.fields[key] {
        case nil: return nil
        case .integer(let number)?: return String(number)
        case .real(let number)?: return Self.text(of: number)
        case let other?:
            throw Self.error(
                at: "\(place(of: object)), field \(key)", "\(other.kindWithArticle), not a number")
        }
    }

    private func integer(_ key: String, of object: ArchivedObject) throws -> Int64? {
        switch object.fields[key] {
        case nil: return nil
        case .integer(let number)?: return number
        case .bool(let flag)?: return flag ? 1 : 0
        case let other?:
            throw Self.error(
                at: "\(place(of: object)), field \(key)", "\(other.kindWithArticle), not an integer"
            )
        }
    }

    /// A dictionary field's entries by string key: a plain `NSDictionary`, or Core Data's
    /// `NSKnownKeysDictionary1` (its keys in `searchMapping.keys`, its values in `values`).
    private func entries(of key: String, in object: ArchivedObject) throws -> [(
        key: String, value: ArchivedValue
    )] {
        let location = "\(place(of: object)), field \(key)"
        switch try decoded(key, of: object) {
        case nil, .null?: return []
        case .dictionary(let entries)?:
            return try entries.map { entryKey, value in
                guard case .string(let name) = entryKey else {
                    throw Self.error(
                        at: location, "a key that is \(Self.kind(entryKey)), not a string")
                }
                return (name, value)
            }
        case .object(let known)? where known.classNames.contains("NSKnownKeysDictionary1"):
            guard let mapping = try reference("searchMapping", of: known),
                case .array(let keys)? = try decoded("keys", of: mapping),
                case .array(let values)? = try decoded("values", of: known)
            else {
                throw Self.error(
                    at: location, "an NSKnownKeysDictionary1 without its keys and values")
            }
            guard keys.count == values.count else {
                throw Self.error(at: location, "\(keys.count) keys but \(values.count) values")
            }
            return try zip(keys, values).map { entryKey, value in
                guard case .string(let name) = entryKey else {
                    throw Self.error(
                        at: location, "a key that is \(Self.kind(entryKey)), not a string")
                }
                return (name, value)
            }
        case let other?:
            throw Self.error(at: location, "\(Self.kind(other)), not a dictionary")
        }
    }

    /// An array of arrays of strings (uniqueness constraints).
    private func stringLists(_ key: String, of object: ArchivedObject) throws -> [[String]] {
        let location = "\(place(of: object)), field \(key)"
        switch try decoded(key, of: object) {
        case nil, .null?: return []
        case .array(let lists)?:
            return try lists.map { list in
                guard case .array(let names) = list else {
                    throw Self.error(
                        at: location, "an element that is \(Self.kind(list)), not an array")
                }
                return try names.map { name in
                    guard case .string(let text) = name else {
                        throw Self.error(
                            at: location, "a name that is \(Self.kind(name)), not a string")
                    }
                    return text
                }
            }
        case let other?:
            throw Self.error(at: location, "\(Self.kind(other)), not an array")
        }
    }

    /// A user info dictionary, its values as strings (other values described).
    private func userInfo(of object: ArchivedObject) throws -> [String: String] {
        var info: [String: String] = [:]
        for (key, value) in try entries(of: "NSUserInfo", in: object) {
            if case .string(let text) = value {
                info[key] = text
            } else {
                info[key] = "\(value.foundationValue)"
            }
        }
        return info
    }

    private static func kind(_ value: ArchivedValue) -> String {
        switch value {
        case .object(let object): return "an object of class \(object.className)"
        case .null: return "null"
        case .string: return "a string"
        case .integer, .unsignedInteger, .real, .bool: return "a number"
        case .data: return "data"
        case .date: return "a date"
        case .uuid: return "a UUID"
        case .url: return "a URL"
        case .array: return "an array"
        case .set: return "a set"
        case .dictionary: return "a dictionary"
        }
    }

    private static func error(at location: String, _ reason: String) -> CoreDataFormatError {
        CoreDataFormatError(.compiledModel, at: location, reason)
    }
}
