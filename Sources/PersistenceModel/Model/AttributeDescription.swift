import Foundation

/// Describes one attribute of an entity: its name, type and the rules its values follow.
///
/// The names follow Core Data's `NSAttributeDescription` and the keys Xcode writes in a
/// `.xcdatamodel/contents` file (shown in brackets where they differ).
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name, unique within its entity and its ancestors.
    public var name: String
    /// The attribute's type [`attributeType`].
    public var type: AttributeType
    /// Whether the value may be `nil` [`optional`]. Core Data's default is `true`.
    public var isOptional: Bool
    /// Whether the value lives only in memory: no column, never fetched on [`transient`].
    public var isTransient: Bool
    /// The derivation expression of a derived attribute [`derivationExpression`], computed
    /// during save and stored; `nil` for an ordinary attribute.
    public var derivationExpression: String?
    /// The default value as written in the model [`defaultValueString`]; parsed by the
    /// type's rules into `defaultValue`.
    public var defaultValueString: String?
    /// Whether generated code uses a Swift scalar (`Int64`) rather than an object type.
    public var usesScalarValueType: Bool
    /// The minimum: a number for numeric types, seconds since 2001-01-01 for dates, a
    /// length for strings [`minValueString`].
    public var minValueString: String?
    /// The maximum, with the same meaning as `minValueString` [`maxValueString`].
    public var maxValueString: String?
    /// A regular expression every non-nil string value must match in full
    /// [`regularExpressionString`].
    public var regularExpressionString: String?
    /// Predicate format strings each value must satisfy, paired with `validationWarnings`.
    public var validationPredicates: [String]
    /// The message shown when the predicate at the same index fails.
    public var validationWarnings: [String]
    /// Whether large binary values may be stored in files beside the store
    /// [`allowsExternalBinaryDataStorage`].
    public var allowsExternalBinaryDataStorage: Bool
    /// The name a value transformer is registered under, for a transformable attribute
    /// [`valueTransformerName`].
    public var valueTransformerName: String?
    /// The class of a transformable attribute's values [`customClassName`].
    public var customClassName: String?
    /// Whether the value is kept in a tombstone after its object is deleted
    /// [`preserveAfterDeletion`].
    public var preservesValueInHistoryOnDeletion: Bool
    /// Whether the store keeps an index on this attribute [`indexed`].
    public var isIndexed: Bool
    /// Whether the attribute is indexed for full-text search [`spotlightIndexingEnabled`].
    /// Linux has no Spotlight: the store keeps an FTS5 index over the canonical form.
    public var isIndexedBySpotlight: Bool
    /// Core Data's CloudKit encryption flag [`allowsCloudEncryption`]. Kept so that models
    /// round-trip; it has no effect on Linux, where nothing syncs to CloudKit.
    public var allowsCloudEncryption: Bool
    /// Free-form key-value pairs for the app [`userInfo`].
    public var userInfo: [String: String]
    /// Changes the version hash without changing the schema [`versionHashModifier`].
    public var versionHashModifier: String?
    /// The attribute's name in an earlier model version, for migration [`elementID`].
    public var renamingIdentifier: String?

    /// Creates an attribute description. Attributes are optional by default, as in Core Data.
    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = true,
        isTransient: Bool = false,
        derivationExpression: String? = nil,
        defaultValueString: String? = nil,
        usesScalarValueType: Bool = false,
        minValueString: String? = nil,
        maxValueString: String? = nil,
        regularExpressionString: String? = nil,
        validationPredicates: [String] = [],
        validationWarnings: [String] = [],
        allowsExternalBinaryDataStorage: Bool = false,
        valueTransformerName: String? = nil,
        customClassName: String? = nil,
        preservesValueInHistoryOnDeletion: Bool = false,
        isIndexed: Bool = false,
        isIndexedBySpotlight: Bool = false,
        allowsCloudEncryption: Bool = false,
        userInfo: [String: String] = [:],
        versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.derivationExpression = derivationExpression
        self.defaultValueString = defaultValueString
        self.usesScalarValueType = usesScalarValueType
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.regularExpressionString = regularExpressionString
        self.validationPredicates = validationPredicates
        self.validationWarnings = validationWarnings
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.isIndexed = isIndexed
        self.isIndexedBySpotlight = isIndexedBySpotlight
        self.allowsCloudEncryption = allowsCloudEncryption
        self.userInfo = userInfo
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
    }

    /// Whether the attribute is derived: computed during save from `derivationExpression`.
    public var isDerived: Bool { derivationExpression != nil }

    /// Whether the attribute has a column in the store: neither transient nor undefined.
    public var isStored: Bool { !isTransient && type != .undefined }
}
