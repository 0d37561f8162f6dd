import Observation
import PersistenceModel

/// Managed objects of a context with `isObservationEnabled` are observable with Swift's
/// Observation: `withObservationTracking` sees
/// the managed properties a closure reads, and its `onChange` fires when one of them changes
/// through any path: a setter, an inverse relationship kept in step, undo and redo,
/// `rollback()`, a refresh or merge of what another context saved, a derived value computed
/// at save. A computed transient (see `computedTransients`) changes when an attribute it
/// depends on does.
///
/// ```swift
/// container.viewContext.isObservationEnabled = true
/// withObservationTracking {
///     print(book.title, book.publishMonthID)
/// } onChange: {
///     print("the book changed")
/// }
/// book.publishDate = .now    // fires: publishMonthID depends on publishDate
/// ```
///
/// The conformance is declared here, on the base class, and the base class reports reads
/// and writes by property position from its own value paths, so generated and hand-written
/// subclasses are observable with no macro and no code of their own. Each position has one
/// key path, `\ManagedObject.[observedProperty: position]`, made once for the program: the
/// registrar tells observations apart by key path, not by the name of the subclass's
/// property.
extension ManagedObject: Observable {}

extension ManagedObject {
    /// The key path the registrar knows a property position by (see `ObservedProperties`).
    /// Reading it yields nothing: only its identity matters.
    package subscript(observedProperty position: Int) -> Void { () }

    // MARK: - Reporting reads and changes

    /// Tells the registrar that the property at `position` was read, so that an observation
    /// tracking the reading code installs itself here.
    ///
    /// Only in a context with `isObservationEnabled`, where the registrar is made at the first
    /// read of the object, not when the object is made: a fetch of objects that are never
    /// read makes none. A registrar costs about as much as making the object and reading its
    /// row, and each read the registrar's check for a running observation (a thread-local
    /// look-up), which is why observation is opted into per context.
    @inline(__always)
    package func observationAccess(at position: Int) {
        guard isObservable else { return }
        if observationRegistrar == nil { observationRegistrar = ObservationRegistrar() }
        observationRegistrar?.access(self, keyPath: ObservedProperties.keyPath(at: position))
    }

    /// Runs `mutation`, which changes the property at `position`, between the registrar's
    /// will-set and did-set notices; only `mutation` when the object was never read (no one
    /// can be observing it then).
    @inline(__always)
    package func withObservedMutation<R>(at position: Int, _ mutation: () throws -> R) rethrows -> R {
        guard let registrar = observationRegistrar else { return try mutation() }
        let keyPath = ObservedProperties.keyPath(at: position)
        registrar.willSet(self, keyPath: keyPath)
        defer { registrar.didSet(self, keyPath: keyPath) }
        return try mutation()
    }

    /// Reports that the properties at `positions` changed (after the fact: the values were
    /// replaced wholesale), with the computed transients that depend on them.
    package func observedPropertiesDidChange(at positions: some Sequence<Int>) {
        guard let registrar = observationRegistrar else { return }
        var notified = Set<Int>()
        for position in positions {
            notified.insert(position)
            if let computation = transientComputation, position < computation.lazyDependents.count {
                let dependents = computation.lazyDependents[position]
                for bit in 0..<64 where dependents & (1 << UInt64(bit)) != 0 { notified.insert(bit) }
                notified.formUnion(computation.eagerDependents[position])
            }
        }
        for position in notified.sorted() {
            let keyPath = ObservedProperties.keyPath(at: position)
            registrar.willSet(self, keyPath: keyPath)
            registrar.didSet(self, keyPath: keyPath)
        }
    }

    /// Reports that the computed transients depending on the attribute at `position` changed
    /// (the attribute did).
    package func observedDependentsDidChange(of position: Int) {
        guard let registrar = observationRegistrar, let computation = transientComputation,
            position < computation.lazyDependents.count
        else { return }
        let dependents = computation.lazyDependents[position]
        for dependent in (0..<64).filter({ dependents & (1 << UInt64($0)) != 0 }) + computation.eagerDependents[position] {
            let keyPath = ObservedProperties.keyPath(at: dependent)
            registrar.willSet(self, keyPath: keyPath)
            registrar.didSet(self, keyPath: keyPath)
        }
    }

    /// Replaces every value, reporting the positions whose values differ (and, when the
    /// object turns into a fault, every position: its values are unknown until it loads).
    package func replaceSlots(with newSlots: Slots, becomingFault: Bool = false) {
        guard observationRegistrar != nil, !isFault || becomingFault else {
            slots = newSlots
            return
        }
        let old = slots
        slots = newSlots
        if becomingFault {
            observedPropertiesDidChange(at: old.indices)
        } else {
            observedPropertiesDidChange(at: old.indices.filter { !old[$0].isSame(as: newSlots[$0]) })
        }
    }
}

extension ManagedObjectContext {
    /// Gives every object of the context the flag that makes it observable.
    func observationDidChange() {
        let observable = isObservationEnabled
        onQueue { forEachObject { $0.isObservable = observable } }
    }
}

/// One key path per property position, shared by every object of every entity.
package enum ObservedProperties {
    /// Key paths for the first positions, made once: making a key path with an argument
    /// allocates it, which a read must not do.
    private static let common: [KeyPath<ManagedObject, Void> & Sendable] = (0..<256).map { \ManagedObject.[observedProperty: $0] }

    /// The key path for `position`.
    @inline(__always)
    static func keyPath(at position: Int) -> KeyPath<ManagedObject, Void> {
        if position < common.count { return common[position] }
        return \ManagedObject.[observedProperty: position]
    }
}
