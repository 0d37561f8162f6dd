import Foundation
import Observation
import PersistenceModel
import PersistenceStore

/// An object of the model: an entity's instance, owned by a context, whose changes are
/// tracked and saved atomically.
///
/// Values live in slots indexed by the property's position in its entity (resolved once,
/// when the model froze; a NULL value takes no storage, see `PropertySlots`). Read and
/// write them by name (`book["title"]`), through the throwing `setValue(_:forKey:)` for
/// values that come from outside the program, or through typed properties in a subclass,
/// the way Core Data's "Manual/None" codegen works:
///
/// ```swift
/// final class Book: ManagedObject {
///     var title: String {
///         get { value(forKey: "title", default: "") }
///         set { self["title"] = newValue }
///     }
///     var author: Author? {
///         get { object(forKey: "author") as? Author }
///         set { setObject(newValue, forKey: "author") }
///     }
/// }
/// ```
///
/// Register the subclass with the container (`PersistentContainer(…, classes:)`) so that
/// fetched and inserted objects of the entity are instances of it. Subclasses must not
/// declare designated initializers; override `awakeFromInsert()`, `awakeFromFetch()`,
/// `didChangeValue(forKey:)` and `willSave()` instead.
///
/// Not Sendable: an object belongs to its context's queue (see `ManagedObjectContext.ConcurrencyType`);
/// other queues name it by its `objectID`.
open class ManagedObject {
    // The stored properties are declared in an order that packs them (Swift lays a class's
    // out in declaration order): the flags fill the bytes the ID leaves before the next word.
    // State most objects never use lives in `extras`.

    /// The resolved entity.
    package let schema: EntitySchema
    /// The object's ID: temporary until the object is first saved.
    @exclusivity(unchecked) public package(set) var objectID: ObjectID
    /// Whether the values have not been loaded yet (a fault).
    @exclusivity(unchecked) public package(set) var isFault: Bool
    /// Whether the object was inserted since the last save.
    @exclusivity(unchecked) public package(set) var isInserted = false
    /// Whether the object is marked for deletion at the next save.
    @exclusivity(unchecked) public package(set) var isDeleted = false
    /// Whether the object's context has an undo manager, so that changes register undo
    /// actions (see `ManagedObjectContext.undoManager`): one flag read per change when it
    /// has none.
    @exclusivity(unchecked) package var registersUndo: Bool
    /// Whether the object's context makes its objects observable (see
    /// `ManagedObjectContext.isObservationEnabled`): one flag read per read when it does not.
    @exclusivity(unchecked) package var isObservable: Bool
    /// Whether the committed values are the current ones, one storage (see `committedSlots`):
    /// true for a fetched or saved object nobody has changed since.
    @exclusivity(unchecked) var committedIsCurrent = false
    /// The context the object belongs to; nil once the object is deleted and saved, or its
    /// context is reset or gone.
    ///
    /// Not a weak reference: a weak one gives the context a side table, which sends every
    /// retain and release of the context down the runtime's slow path (and costs one atomic
    /// operation per object made). The context instead sets this to nil in every object that
    /// refers to it before it goes (see `ManagedObjectContext.detachAll()`).
    @exclusivity(unchecked) public package(set) unowned var managedObjectContext: ManagedObjectContext?

    /// A value per property position. Any change drops the membership caches.
    ///
    /// `slots`, `committedSlots`, `rowVersion`, the ID, the context, the flags,
    /// `staleTransients` and `extras` are read on every attribute access, fetched row, change
    /// or object's end, and the run-time exclusivity check of each read (a thread-local access
    /// set) is a noticeable share of a fetch that reads every attribute. The checks are
    /// off for these: only this module writes them, and no access to them spans a call out
    /// (none is passed `inout` or modified across a closure that runs user code; user code
    /// such as `awakeFromFetch()` and `didChangeValue(forKey:)` runs between accesses), so no
    /// two can overlap.
    package var slots: Slots {
        @inline(__always) get { storedSlots }
        _modify {
            if committedIsCurrent { keepCommittedSlotsApart() }
            yield &storedSlots
            if let extras, !extras.memberships.isEmpty { extras.memberships.removeAll() }
        }
        set {
            if committedIsCurrent { keepCommittedSlotsApart() }
            storedSlots = newValue
            if let extras, !extras.memberships.isEmpty { extras.memberships.removeAll() }
        }
    }
    /// The storage of `slots`, and of `committedSlots` while `committedIsCurrent`.
    @exclusivity(unchecked) private var storedSlots: Slots
    /// The values as last saved or fetched; nil for an object never saved.
    ///
    /// Not a stored property of its own: for most objects (fetched, or saved, and unchanged
    /// since) the committed values are the current ones, so `committedIsCurrent` says so in
    /// a byte of the object's padding, and the values are kept apart, in `extras`, only from
    /// the first change on. Two words fewer in every object (issue #47).
    package var committedSlots: Slots? {
        get { committedIsCurrent ? storedSlots : extras?.committedSlots }
        set {
            if let newValue, newValue.isIdentical(to: storedSlots) {
                committedIsCurrent = true
                if let extras, extras.committedSlots != nil { extras.committedSlots = nil }
            } else {
                committedIsCurrent = false
                if let newValue {
                    madeExtras.committedSlots = newValue
                } else if let extras, extras.committedSlots != nil {
                    extras.committedSlots = nil
                }
            }
        }
    }
    /// The version of the object's row when the object last read or wrote it (see
    /// `StoreRow.version`), which a save compares with the row's to find a conflict; 0 while
    /// it has none (inserted and unsaved, or a fault never loaded), which is never checked.
    @exclusivity(unchecked) package var rowVersion: Int64 = 0
    /// The class's transients computed on demand, resolved for the entity (nil for none).
    package let transientComputation: TransientComputation?
    /// Computed transients to compute at their next read, as a bit mask of positions.
    @exclusivity(unchecked) package var staleTransients: UInt64 = 0
    /// The state most objects never need (see `LazyObjectState`), made at its first use: to-many
    /// membership caches, pending inverse edits, a running save's key, fetched properties'
    /// results and the Observation registrar.
    @exclusivity(unchecked) package var extras: LazyObjectState?

    /// Creates an object; called by the context only.
    public required init(_ construction: consuming ObjectConstruction) {
        schema = construction.schema
        objectID = construction.objectID
        managedObjectContext = construction.context
        storedSlots = construction.slots ?? Slots(nullCount: construction.schema.properties.count)
        isFault = construction.isFault
        transientComputation = construction.transientComputation
        registersUndo = construction.registersUndo
        isObservable = construction.isObservable
    }

    /// Removes the object's registry entry, which does not keep it alive: on the context's
    /// queue, as every change to the registry is made.
    deinit {
        guard let context = managedObjectContext else { return }
        if context.isOnQueue { return context.unregister(objectID, identity: ObjectIdentifier(self)) }
        let id = objectID, identity = ObjectIdentifier(self)
        context.performAndWait { context.unregister(id, identity: identity) }
    }

    /// Keeps the committed values, until now the current ones, apart from `slots`, which
    /// are about to change.
    private func keepCommittedSlotsApart() {
        committedIsCurrent = false
        madeExtras.committedSlots = storedSlots
    }

    /// Puts `slot` at `position` in the values and, for an object with committed values, in
    /// those too: a value that counts as loaded, not as a change (a relationship fault
    /// resolved, a value the store derived). Committed values that are the current ones stay
    /// one storage, written in place when it is held here alone.
    package func setLoadedSlot(_ slot: Slot, at position: Int) {
        guard committedIsCurrent else {
            slots[position] = slot
            if committedSlots != nil { committedSlots?[position] = slot }
            return
        }
        committedIsCurrent = false
        slots[position] = slot
        committedIsCurrent = true
    }

    // MARK: - Lifecycle hooks

    /// Called once, when the object is inserted into a context, after defaults are applied.
    open func awakeFromInsert() {}

    /// Called after the object's values are loaded from the store.
    open func awakeFromFetch() {}

    /// Called after a property's value changes through any setter.
    open func didChangeValue(forKey key: String) {}

    /// Called at the start of a save, before derived values and validation.
    open func willSave() {}

    // MARK: - Transients computed on demand

    /// The transient attributes this class computes on demand, each with the attributes its
    /// value is computed from: `["publishMonthID": ["publishDate"]]`.
    ///
    /// Such a transient is computed by `computeTransientValue(forKey:)` (or its typed form,
    /// `computeTransientAttributeValue(forKey:)`) when it is first read after the object is
    /// fetched, inserted or rolled back, and again after one of the attributes it depends on
    /// changes, as Core Data's "Handling Different Data Types" sample does by hand with
    /// `primitiveValue(forKey:)`. Nothing is computed for objects whose transient is never
    /// read: a fetch of many books computes no month ID until one is read. The computed value
    /// counts as fetched, not as a change; setting the transient yourself keeps your value
    /// until a dependency changes.
    ///
    /// Keys that are not transient attributes of the entity are ignored, as are transients
    /// at positions 64 and above (an entity with more than 64 properties): those are computed
    /// as soon as the object is fetched, inserted or changed instead.
    open class var computedTransients: [String: [String]] { [:] }

    /// The property names of key paths of a hand-written subclass's own properties, for typed
    /// fetches, beside its ``PropertyKeyPathNaming`` table: override it in a subclass of a
    /// generated class, which inherits the generated table's conformance and cannot declare
    /// another (`[\ExpensiveSportCar.isLimitedEdition: "isLimitedEdition"]`). Empty by
    /// default.
    open class var additionalPropertyNamesByKeyPath: [AnyKeyPath: String] { [:] }

    /// Computes the value of a transient listed in `computedTransients`, from the object's
    /// other values (read them through the usual getters); nil for no value.
    ///
    /// The value must be of the attribute's type (a `String` for a String attribute): any
    /// other is a programmer error, as for the subscript's setter.
    open func computeTransientValue(forKey key: String) -> Any? { nil }

    /// `computeTransientValue(forKey:)` with the value already typed: `.string(_:)` for a
    /// String attribute, `.null` for no value; nil (the default) to have
    /// `computeTransientValue(forKey:)` asked instead.
    ///
    /// Override this one when the value is at hand typed: the context stores it as it is,
    /// where a result as `Any` is boxed and then cast back to the attribute's type. A value of
    /// another type is converted as `computeTransientValue(forKey:)`'s would be; one that
    /// does not fit is a programmer error there too.
    open func computeTransientAttributeValue(forKey key: String) -> AttributeValue? { nil }

    // MARK: - Entity

    /// The object's entity.
    public var entity: EntityDescription { schema.entity }

    /// The name of the object's entity.
    public var entityName: String { schema.name }

    /// Whether the object has unsaved changes: inserted, deleted, with changed values, or
    /// with objects added to or removed from a to-many that is still a fault (such an edit
    /// must reach validation: removing the last member can break a minimum count).
    public var hasChanges: Bool {
        isInserted || isDeleted || pendingToMany.values.contains { !$0.added.isEmpty || !$0.removed.isEmpty }
            || hasChangedValues
    }

    /// Whether the object's values differ from the saved ones (for a saved object).
    public var isUpdated: Bool { !isInserted && !isDeleted && hasChangedValues }
}

/// The arguments of `ManagedObject.init(_:)`, which only a context can make.
public struct ObjectConstruction {
    let schema: EntitySchema
    let objectID: ObjectID
    let context: ManagedObjectContext
    let isFault: Bool
    /// The slots to start with (a fetched row's, see `RowDecodePlan`); nil for empty ones.
    var slots: Slots? = nil
    /// The class's transients computed on demand, for the entity.
    var transientComputation: TransientComputation? = nil
    /// Whether the context has an undo manager.
    var registersUndo = false
    /// Whether the context makes its objects observable.
    var isObservable = false
}

/// Objects added to and removed from a to-many relationship that has not been loaded.
package struct PendingToMany {
    var added: [ManagedObject] = []
    /// Removed objects, kept so that a save can name them in join tables.
    var removed: [ObjectIdentifier: ManagedObject] = [:]
}

/// A property's value inside an object (see `PropertySlot`).
package typealias Slot = PropertySlot<ManagedObject>

/// An object's values (see `PropertySlots`).
package typealias Slots = PropertySlots<ManagedObject>
