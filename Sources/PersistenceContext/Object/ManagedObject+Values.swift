import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObject {
    // MARK: - Access by name

    /// The value of a property by name: an attribute's value (`nil` when it has none), a
    /// to-one's destination, or a to-many's destinations as `[ManagedObject]`.
    ///
    /// Setting a value of the wrong type, an unknown key or a derived attribute is a
    /// programmer error, as in Core Data; use `setValue(_:forKey:)` for values that come
    /// from outside the program. So is an app's own value for a transformable attribute,
    /// which as `Any` cannot be shown to be Sendable: set it with
    /// `setTransformableValue(_:forKey:)` (see `setValue(_:forKey:)`). Set off its context's queue, the value is set on that queue
    /// (as `performAndWait` would); an object with no context only holds the value.
    public subscript(key: String) -> Any? {
        get { value(forKey: key) }
        set {
            if let context = managedObjectContext, !context.isOnQueue {
                context.performAndWait { self[key] = newValue }
                return
            }
            do { try assignValue(newValue, forKey: key) } catch { preconditionFailure("\(error)") }
        }
    }

    /// The value of a property by name; nil for an unknown key or a missing value.
    ///
    /// A fetched property's value is its objects, `[ManagedObject]`, kept from its first read
    /// until the object is refreshed (see `fetchedObjects(forKey:)`, which throws what this
    /// turns into nil).
    public func value(forKey key: String) -> Any? {
        guard let position = schema.propertyIndex[key] else {
            guard fetchedPropertyDescription(named: key) != nil else { return nil }
            if let context = managedObjectContext, !context.isOnQueue {
                return context.performAndWait { try? fetchedObjects(forKey: key) }
            }
            return try? fetchedObjects(forKey: key)
        }
        switch schema.properties[position] {
        case .attribute: return attributeValue(at: position).anyValue
        case .relationship(let r):
            return r.isToMany ? objects(at: position) : object(at: position)
        }
    }

    /// Sets a property by name.
    ///
    /// A transformable attribute's value must be `Sendable` (a save or a merge may carry it
    /// to another thread), which a value passed as `Any` no longer shows: this takes it only
    /// when its type does (the standard value types, `Data`, `URL`, `UUID`, `Date`,
    /// `Decimal`, any `TransformableValue`, and arrays, sets and `String`-keyed dictionaries
    /// of them), and refuses any other with an error that says to use
    /// `setTransformableValue(_:forKey:)` or conform its type to `TransformableValue`.
    ///
    /// - Throws: `ObjectAccessError` for an unknown key, a value of the wrong type (or a
    ///   transformable value not shown to be Sendable), a derived attribute, an object with
    ///   no context (its context gone or reset, or its deletion saved), or one used off its
    ///   context's queue.
    public func setValue(_ value: Any?, forKey key: String) throws {
        try checkContext(forSetting: key)
        try assignValue(value, forKey: key)
    }

    /// Sets a property by name to a value the compiler checked for `Sendable`: the setter for
    /// a transformable attribute's app value (a struct or class of the app's own, which
    /// `setValue(_:forKey:)` cannot tell is Sendable once it is passed as `Any`).
    ///
    /// For any other attribute, the same as `setValue(_:forKey:)`.
    ///
    /// - Throws: `ObjectAccessError`, as `setValue(_:forKey:)` does.
    public func setTransformableValue<T: Sendable>(_ value: T?, forKey key: String) throws {
        try checkContext(forSetting: key)
        try assignSendable(value, forKey: key)
    }

    /// Sets an attribute by name to a value known to be Sendable (see
    /// `setTransformableValue(_:forKey:)`); a relationship as `assignValue(_:forKey:)` does.
    func assignSendable(_ value: (any Sendable)?, forKey key: String) throws {
        guard let position = schema.propertyIndex[key], case .attribute(let attribute) = schema.properties[position],
            !attribute.isDerived
        else { return try assignValue(value, forKey: key) }
        let converted: AttributeValue
        do { converted = try AttributeValue.coerce(sendable: value, to: attribute) } catch {
            throw ObjectAccessError(entity: schema.name, key: key, reason: error.reason)
        }
        setAttributeValue(converted, at: position)
    }

    /// Sets a property by name, checking the key and the value (see `setValue(_:forKey:)`).
    func assignValue(_ value: Any?, forKey key: String) throws {
        guard let position = schema.propertyIndex[key] else {
            throw ObjectAccessError(entity: schema.name, key: key, reason: "\(schema.name) has no property named '\(key)'")
        }
        switch schema.properties[position] {
        case .attribute(let attribute):
            if attribute.isDerived {
                throw ObjectAccessError(
                    entity: schema.name, key: key,
                    reason: "it is derived from '\(attribute.derivationExpression ?? "")' and computed on save")
            }
            let converted: AttributeValue
            do { converted = try AttributeValue.coerce(value, to: attribute) } catch {
                throw ObjectAccessError(entity: schema.name, key: key, reason: error.reason)
            }
            setAttributeValue(converted, at: position)
        case .relationship(let relationship):
            if relationship.isToMany {
                guard let objects = value as? [ManagedObject] ?? (value == nil ? [] : nil) else {
                    throw ObjectAccessError(entity: schema.name, key: key, reason: "expected [ManagedObject], got \(type(of: value!))")
                }
                try setObjects(objects, at: position)
            } else {
                guard value == nil || value is ManagedObject else {
                    throw ObjectAccessError(entity: schema.name, key: key, reason: "expected a ManagedObject, got \(type(of: value!))")
                }
                try setObject(value as? ManagedObject, at: position)
            }
        }
    }

    /// A typed attribute value; `defaultValue` when the attribute has no value or is unknown.
    ///
    /// Inlinable, so that the conversion to `T` is specialised in the caller's module rather
    /// than dispatched through `T`'s metadata on every read.
    @inlinable
    public func value<T: AttributeValueConvertible>(forKey key: String, default defaultValue: T) -> T {
        T(attributeValue: attributeValue(forKey: key)) ?? defaultValue
    }

    /// A typed attribute value, or nil when it has none (or is of another type).
    @inlinable
    public func value<T: AttributeValueConvertible>(forKey key: String, as type: T.Type = T.self) -> T? {
        T(attributeValue: attributeValue(forKey: key))
    }

    // MARK: - Access by position

    /// A typed attribute value read by position, as generated getters read it:
    /// `value(at: 5, forKey: "title", default: "")`; `defaultValue` when the attribute has no
    /// value.
    ///
    /// `position` is the attribute's position in its entity (inherited properties first, then
    /// the entity's own, attributes before relationships at each level), which the code
    /// generator works out from the model; `key` is its name. The name at the position is
    /// compared with `key` (two equal short strings compare as two machine words), so a
    /// class used with another version of the model still reads the right attribute, found
    /// by name then. A fault fires and a stale computed transient is computed first, as for
    /// any read.
    @inlinable
    public func value<T: AttributeValueConvertible>(at position: Int, forKey key: String, default defaultValue: T) -> T {
        T(attributeValue: attributeValue(at: position, forKey: key)) ?? defaultValue
    }

    /// A typed attribute value read by position (see `value(at:forKey:default:)`), or nil
    /// when it has none.
    @inlinable
    public func value<T: AttributeValueConvertible>(at position: Int, forKey key: String, as type: T.Type = T.self) -> T? {
        T(attributeValue: attributeValue(at: position, forKey: key))
    }

    /// A transformable attribute's app value read by position (see
    /// `value(at:forKey:default:)`), or nil when it has none or it is not a `T`.
    @inlinable
    public func transformedValue<T>(at position: Int, forKey key: String, as type: T.Type = T.self) -> T? {
        transformableValue(at: position, forKey: key) as? T
    }

    /// A transformable attribute's value decoded as `T`: the app value a named transformer
    /// produced, or JSON bytes stored without one.
    public func decodedValue<T: Decodable>(forKey key: String, as type: T.Type = T.self) -> T? {
        guard let position = schema.propertyIndex[key] else { return nil }
        guard case .transformable(let value) = attributeValue(at: position) else { return nil }
        if let typed = value as? T { return typed }
        if let bytes = value as? TransformableBytes { return try? JSONDecoder().decode(T.self, from: bytes.data) }
        return nil
    }

    // MARK: - Changes

    /// The properties whose values differ from the saved ones, with their new values.
    /// For an inserted object, every property with a value.
    public func changedValues() -> [String: Any?] {
        var result: [String: Any?] = [:]
        for position in changedPositions() {
            result[schema.properties[position].name] = value(forKey: schema.properties[position].name)
        }
        return result
    }

    /// The values as last saved or fetched, for the given keys (all when nil).
    public func committedValues(forKeys keys: [String]? = nil) -> [String: Any?] {
        guard let committed = committedSlots else { return [:] }
        var result: [String: Any?] = [:]
        for (position, property) in schema.properties.enumerated()
        where keys?.contains(property.name) ?? true {
            if case .value(let v) = committed[position] { result[property.name] = v.anyValue }
        }
        return result
    }

    /// Property positions whose values differ from the committed ones.
    package func changedPositions() -> [Int] {
        guard !isFault else { return [] }
        // One read of the slots: `slots` in the closure re-read the property (an
        // exclusivity check and a retain of the storage) for every position.
        let slots = self.slots
        guard let committed = committedSlots else {
            return slots.indices.filter { slots[$0].hasValue }
        }
        return slots.indices.filter { !slots[$0].isSame(as: committed[$0]) }
    }

    /// Whether any property differs from its committed value: `!changedPositions().isEmpty`
    /// without building arrays (a save asks this of every changed object).
    package var hasChangedValues: Bool {
        guard !isFault else { return false }
        let slots = self.slots  // one read of the array, as in `changedPositions()`
        guard let committed = committedSlots else { return slots.contains { $0.hasValue } }
        return slots.indices.contains { !slots[$0].isSame(as: committed[$0]) }
    }

    // MARK: - Internals

    /// The value of the attribute named `key`; `.null` for an unknown key or a relationship.
    @usableFromInline
    package func attributeValue(forKey key: String) -> AttributeValue {
        guard let position = schema.propertyIndex[key] else { return .null }
        return attributeValue(at: position)
    }

    /// The value of the attribute at `position` when the entity's property there is named
    /// `key`, else of the attribute named `key` wherever it is; `.null` for an unknown key.
    @usableFromInline
    package func attributeValue(at position: Int, forKey key: String) -> AttributeValue {
        let names = schema.propertyNames
        if position >= 0, position < names.count, names[position] == key { return attributeValue(at: position) }
        return attributeValue(forKey: key)
    }

    /// The attribute value at a position, firing the fault first.
    package func attributeValue(at position: Int) -> AttributeValue {
        prepareRead(at: position)
        if case .value(let v) = slots[position] { return v }
        return .null
    }

    /// A transformable attribute's app value, found as `attributeValue(at:forKey:)` finds a
    /// value, or nil for none. Read straight from the object's storage: an `AttributeValue`
    /// would box the value first (its transformable case is indirect).
    @usableFromInline
    package func transformableValue(at position: Int, forKey key: String) -> (any Sendable)? {
        let names = schema.propertyNames
        guard position >= 0, position < names.count, names[position] == key else {
            guard case .transformable(let value) = attributeValue(forKey: key) else { return nil }
            return value
        }
        prepareRead(at: position)
        return slots.transformableValue(at: position)
    }

    /// What precedes every read of the value at `position`: the fault fires, a stale
    /// computed transient is computed, observers learn of the access.
    @inline(__always)
    private func prepareRead(at position: Int) {
        fireFaultIfNeeded()
        if staleTransients != 0 { computeTransientIfStale(at: position) }
        observationAccess(at: position)
    }

    /// Sets an attribute value, tracks the change (for undo too), tells observers, and calls
    /// `didChangeValue(forKey:)`.
    ///
    /// - Parameter notify: false for a value the context computes itself (a derived value at
    ///   save): it is not recorded for undo, nor is `didChangeValue(forKey:)` called, but
    ///   observers are told.
    package func setAttributeValue(_ value: AttributeValue, at position: Int, notify: Bool = true) {
        if notify {
            setAttributeValue(value, at: position, named: schema.propertyNames[position])
            return
        }
        fireFaultIfNeeded()
        withObservedMutation(at: position) { slots.setValue(value, at: position) }
        if transientComputation != nil {
            attributeDidChange(at: position)
            if observationRegistrar != nil { observedDependentsDidChange(of: position) }
        }
    }

    /// `setAttributeValue(_:at:)` with the change recorded and notified, for the attribute
    /// named `name` (the one at `position`, which the caller has checked).
    package func setAttributeValue(_ value: AttributeValue, at position: Int, named name: String) {
        fireFaultIfNeeded()
        registerUndoBeforeChange()
        if observationRegistrar == nil {
            slots.setValue(value, at: position)
        } else {
            withObservedMutation(at: position) { slots.setValue(value, at: position) }
        }
        if transientComputation != nil {
            attributeDidChange(at: position)
            if observationRegistrar != nil { observedDependentsDidChange(of: position) }
        }
        // An inserted object is in the context's changed set until it is saved, rolled
        // back or deleted (which clears `isInserted`): no need to hash it in again.
        if !isInserted { managedObjectContext?.objectDidChange(self) }
        didChangeValue(forKey: name)
    }

    /// The key of the object's row: its saved one, or the one the running save gives it.
    package var rowKey: Int64? { objectID.primaryKey ?? savingKey }

    /// Loads the object's values if it is a fault.
    package func fireFaultIfNeeded() {
        guard isFault, let context = managedObjectContext else { return }
        context.fulfillFault(self)
    }
}

extension Slot {
    /// Whether the slot holds something (a value, a destination, destinations).
    var hasValue: Bool {
        switch self {
        case .value(let v): return !v.isNull
        case .toOne(let o): return o != nil
        case .toOneFault(let id): return id != nil
        case .toMany(let objects): return !objects.isEmpty
        case .toManyFault: return false
        }
    }

    /// Whether two slots hold the same value or the same destinations.
    func isSame(as other: Slot) -> Bool {
        switch (self, other) {
        case (.value(let a), .value(let b)): return a == b
        case (.toManyFault, .toManyFault): return true
        case (.toMany(let a), .toMany(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0 === $1 }
        default:
            return destinationID == other.destinationID && isToOne && other.isToOne
        }
    }

    private var isToOne: Bool {
        switch self {
        case .toOne, .toOneFault: return true
        default: return false
        }
    }

    /// The ID of a to-one's destination.
    var destinationID: ObjectID? {
        switch self {
        case .toOne(let o): return o?.objectID
        case .toOneFault(let id): return id
        default: return nil
        }
    }
}

extension ManagedObject {
    /// Sets an attribute without recording a change, as Core Data's `setPrimitiveValue`:
    /// for values an object computes for itself (a transient cache) when it is fetched.
    ///
    /// - Throws: `ObjectAccessError` for an unknown key or a value of the wrong type.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) throws {
        guard let position = schema.propertyIndex[key], case .attribute(let attribute) = schema.properties[position] else {
            throw ObjectAccessError(entity: schema.name, key: key, reason: "\(schema.name) has no attribute named '\(key)'")
        }
        let converted: AttributeValue
        do { converted = try AttributeValue.coerce(value, to: attribute) } catch {
            throw ObjectAccessError(entity: schema.name, key: key, reason: error.reason)
        }
        withObservedMutation(at: position) { slots[position] = .value(converted) }
        if committedSlots != nil { committedSlots?[position] = .value(converted) }
        if transientComputation != nil {
            attributeDidChange(at: position)
            if observationRegistrar != nil { observedDependentsDidChange(of: position) }
        }
    }
}

extension ManagedObject {
    /// Throws unless the object may be changed here: it belongs to a context (not one that
    /// is gone, reset, or that saved its deletion), and the running code is on that context's
    /// queue.
    func checkContext(forSetting key: String) throws {
        guard let context = managedObjectContext else {
            throw ObjectAccessError(
                entity: schema.name, key: key,
                reason: "\(objectID) belongs to no context: its context is gone or was reset, or its deletion was saved")
        }
        do { try context.checkQueue("set \(schema.name).\(key) of \(objectID)") } catch {
            throw ObjectAccessError(entity: schema.name, key: key, reason: "\(objectID) is used off its context's queue: \(error)")
        }
    }
}

