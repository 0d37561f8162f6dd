import PersistenceModel

/// One change a lightweight migration makes to a store, as inferred from two model versions.
///
/// Steps are what `persistence-tool store migrate` prints and what a `MigrationPlan` lists;
/// `losesData` says plainly when existing values will be gone after the step (a removed
/// attribute, relationship or entity — including a rename that has no renaming identifier,
/// which inference can only see as a removal plus an addition).
public struct MigrationStep: Sendable, Hashable, CustomStringConvertible {
    /// What kind of change a step is.
    public enum Kind: String, Sendable, Hashable {
        /// A new entity; its table starts empty.
        case addEntity
        /// An entity that is gone; its objects are deleted.
        case removeEntity
        /// An entity renamed through its renaming identifier; its objects are kept.
        case renameEntity
        /// A new attribute: existing objects get its default value, or nil.
        case addAttribute
        /// An attribute that is gone; its values are deleted.
        case removeAttribute
        /// An attribute renamed through its renaming identifier; its values are kept.
        case renameAttribute
        /// An optional attribute or to-one made required: existing nils get the attribute's
        /// default value; without one, the migration is refused if an object has no value.
        case makeRequired
        /// A required attribute or relationship made optional.
        case makeOptional
        /// An integer attribute widened (Integer 16 → 32 → 64); values are kept.
        case widenType
        /// A new relationship; existing objects have no destinations.
        case addRelationship
        /// A relationship that is gone; its links are deleted (the objects stay).
        case removeRelationship
        /// A relationship renamed through its renaming identifier; its links are kept.
        case renameRelationship
        /// A to-one made to-many or a to-many made to-one; links are kept.
        case changeCardinality
        /// A to-many made ordered or unordered.
        case changeOrdering
        /// A relationship that now points at another (renamed) entity.
        case changeDestination
        /// An index added.
        case addIndex
        /// An index removed.
        case removeIndex
        /// A uniqueness constraint added; refused if existing objects violate it.
        case addUniqueConstraint
        /// A uniqueness constraint removed.
        case removeUniqueConstraint
        /// Only a version hash modifier changed: no schema change.
        case changeHashModifier
        /// A derived attribute recomputed from its sources.
        case recomputeDerived
        /// A property made transient or stored (a transient has no column).
        case changeTransience
        /// A transformable attribute's value transformer changed: every stored value is
        /// decoded with the old transformer and encoded with the new one.
        case changeTransformer
    }

    /// The kind of change.
    public let kind: Kind
    /// The destination entity's name (the source entity's, for a removed entity).
    public let entity: String
    /// The property concerned, if any.
    public let property: String?
    /// A human sentence saying what happens, for printing.
    public let detail: String
    /// Whether existing values are lost by this step.
    public let losesData: Bool

    /// Creates a step.
    public init(_ kind: Kind, entity: String, property: String? = nil, detail: String, losesData: Bool = false) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.detail = detail
        self.losesData = losesData
    }

    /// The step as one line: `Book.title: renamed from name (values kept)`, with a
    /// `DATA LOSS:` prefix when values will be gone.
    public var description: String {
        let subject = property.map { "\(entity).\($0)" } ?? entity
        return (losesData ? "DATA LOSS: " : "") + "\(subject): \(detail)"
    }
}
