import Foundation
import PersistenceModel

/// The model Core Data compiles into a store's Z_MODELCACHE, read back as a
/// `ManagedObjectModel`, so that a store can be opened without its model file.
///
/// Z_MODELCACHE holds a raw DEFLATE stream (see `Inflate`) of a keyed archive (see
/// `KeyedArchive`) of an `NSManagedObjectModel`. What is read, by archive key:
/// - the model: `NSEntities` (a dictionary of entities by name, `NSKnownKeysDictionary1`
///   with `searchMapping.keys` and `values`, or a plain dictionary) and
///   `NSVersionIdentifiers` (a set of strings; one becomes `versionIdentifier`);
/// - an entity: `NSEntityName`, `NSClassNameForEntity`, `NSIsAbstract`, `NSSuperentity`,
///   `NSProperties` (which repeats the inherited properties: only those the parent lacks
///   are the entity's own), `NSUniqueTuples`, `NSUserInfo`, `NSVersionHashModifier`,
///   `NSRenamingIdentifier` (kept only when it differs from the name);
/// - a property: `NSPropertyName`, `NSIsOptional`, `NSIsTransient`, `NSIndexedBySpotlight`,
///   `NSAllowsCloudEncryption`, `NSUserInfo`, `NSVersionHashModifier`,
///   `NSRenamingIdentifier` (`NSValidationPredicates` are archived predicates: not read);
/// - an attribute: `NSAttributeType` (Core Data's numeric type: 100 Integer 16 … 1800
///   Transformable), `NSDefaultValue`, `NSValueTransformerName`,
///   `NSAttributeValueClassName` (the custom class of a transformable), `NSIsIndexed`, and
///   `NSFlagsKey`, whose bits say: 1 a maximum in `NSMaxValueName`, 2 a minimum in
///   `NSMinValueName`, 4 external binary storage, 16 preserve the value after deletion;
/// - a relationship: `NSDestinationEntity` or `_NSDestinationEntityName`,
///   `_NSInverseRelationshipName`, `NSDeleteRule` (0 No Action, 1 Nullify, 2 Cascade, 3
///   Deny), `NSMinCount`, `NSMaxCount` (1 for a to-one), `NSIsOrdered`.
///
/// Not read (Core Data archives them as objects of its own or of `NSPredicate`): fetch
/// request templates, fetched properties, fetch indexes, derived attributes' expressions,
/// composite attributes, configurations, validation predicates. Properties keep the
/// alphabetical order Xcode writes.
package enum CompiledModel {
    /// The model in a Z_MODELCACHE value: inflates it, then reads the archive.
    ///
    /// - Throws: `CoreDataFormatError` naming what cannot be read and where.
    package static func model(fromModelCache data: Data) throws -> ManagedObjectModel {
        try model(fromArchive: try Inflate.decompress(data))
    }

    /// The model in a keyed archive of an `NSManagedObjectModel` (inflated Z_MODELCACHE).
    ///
    /// - Throws: `CoreDataFormatError` naming the object, class and field that cannot be
    ///   read.
    package static func model(fromArchive data: Data) throws -> ManagedObjectModel {
        let archive: KeyedArchive
        do { archive = try KeyedArchive(data: data) } catch let error as CoreDataFormatError {
            throw CoreDataFormatError(
                .compiledModel, at: error.location, "\(error.format.rawValue): \(error.reason)")
        }
        var reader = CompiledModelReader(archive: archive)
        return try reader.readModel()
    }

    /// The archive Core Data would keep in Z_MODELCACHE for `model`, DEFLATE-compressed: the
    /// layout the fixture shows, read back by `model(fromModelCache:)`. Not checked against
    /// Core Data itself, which rebuilds the cache when it finds none.
    ///
    /// - Throws: `CoreDataFormatError` if compressing fails.
    package static func modelCache(for model: ManagedObjectModel) throws -> Data {
        try Deflate.compress(try archive(of: model))
    }

    /// The keyed archive of `model` as an `NSManagedObjectModel` (Z_MODELCACHE inflated).
    ///
    /// - Throws: `CoreDataFormatError` if a value cannot be archived.
    package static func archive(of model: ManagedObjectModel) throws -> Data {
        var writer = CompiledModelWriter(model: model)
        return try writer.write()
    }

    /// Core Data's numeric attribute types (`NSAttributeType`) and ours.
    package static let attributeTypes: [Int64: AttributeType] = [
        0: .undefined, 100: .integer16, 200: .integer32, 300: .integer64, 400: .decimal,
        500: .double,
        600: .float, 700: .string, 800: .boolean, 900: .date, 1000: .binaryData, 1100: .uuid,
        1200: .uri,
        1800: .transformable, 2000: .objectID,
    ]

    /// Core Data's numeric attribute type (`NSAttributeType`) for one of ours.
    package static func attributeTypeCode(_ type: AttributeType) -> Int64 {
        attributeTypes.first { $0.value == type }?.key ?? 0
    }

    /// Core Data's numeric delete rule (`NSDeleteRule`) for one of ours.
    package static func deleteRuleCode(_ rule: DeleteRule) -> Int64 {
        deleteRules.first { $0.value == rule }?.key ?? 1
    }

    /// Core Data's numeric delete rules (`NSDeleteRule`) and ours.
    package static let deleteRules: [Int64: DeleteRule] = [
        0: .noAction, 1: .nullify, 2: .cascade, 3: .deny,
    ]
}
