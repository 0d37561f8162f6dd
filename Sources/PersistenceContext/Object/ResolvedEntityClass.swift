import PersistenceModel
import PersistenceStore
/// What a context makes for an entity's objects: the registered class, and the transients
/// that class computes on demand, resolved to the entity's positions. A class, so that
/// handing it out for each fetched row retains one reference rather than each of its own.
final class ResolvedEntityClass {
    /// The entity.
    let schema: EntitySchema
    /// The class registered for the entity, or `ManagedObject`.
    let type: ManagedObject.Type
    /// The class's `computedTransients`, resolved; nil for none.
    let transientComputation: TransientComputation?

    /// A new object's slots (each attribute's default, no destination, an empty to-many),
    /// each stored with room for any value, made at the first insert; each insert takes a
    /// copy (`PropertySlots.duplicated()`).
    private(set) lazy var newObjectSlots = Slots(storingEach: schema.plans.map(\.initialSlot))

    init(schema: EntitySchema, type: ManagedObject.Type, transientComputation: TransientComputation?) {
        self.schema = schema
        self.type = type
        self.transientComputation = transientComputation
    }
}

extension ManagedObjectContext {
    /// The class and computed transients for `schema`'s objects, resolved on first use and
    /// kept: making an object looks up neither the class by name nor the declared transients.
    func resolvedClass(for schema: EntitySchema) -> ResolvedEntityClass {
        if let last = lastResolvedClass, last.schema === schema { return last }
        let kind: ResolvedEntityClass
        if let known = resolvedClasses[ObjectIdentifier(schema)] {
            kind = known
        } else {
            let type = classes[schema.name] ?? ManagedObject.self
            kind = ResolvedEntityClass(
                schema: schema, type: type, transientComputation: TransientComputation(type, schema: schema))
            resolvedClasses[ObjectIdentifier(schema)] = kind
        }
        lastResolvedClass = kind
        return kind
    }
}
