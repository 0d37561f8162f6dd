import Foundation
import PersistenceModel
import PersistenceStore

/// Setters for generated code: typed, and given the property's position, so that setting a
/// value costs no name lookup and no `Any` coercion.
///
/// `self["title"] = newValue` hashes the name, boxes the value in `Any`, casts it back by
/// the attribute's type and copies the `SchemaProperty` out of the schema, a large share of
/// inserting a book. These setters check the position against the entity's
/// `PropertyPlan`s instead (the name at that position, and the attribute's type), and store
/// the value directly. When the check fails (a hand-written call with a stale position, a
/// Swift type that is not the attribute's own) they take the checked path of
/// `setValue(_:forKey:)`, with its coercion and its errors, so a wrong position is only
/// slower, never wrong.
extension ManagedObject {
    /// Sets an attribute from a value of its own Swift type, by position.
    ///
    /// Inlinable, so that a call from generated code is specialised for `T` in the caller's
    /// module: the value is made an `AttributeValue` there, and only the non-generic
    /// `setStorableValue(_:ofType:forKey:at:)` is called across the module boundary. A generic
    /// call from another module instantiated `Optional<T>`'s metadata through the runtime's
    /// locked cache on every call, a noticeable share of inserting an object.
    ///
    /// - Parameters:
    ///   - value: the new value; nil clears it.
    ///   - key: the attribute's name.
    ///   - position: the attribute's position in the entity (inherited properties first);
    ///     a hint: a wrong one falls back to the lookup by name.
    @inlinable
    public func setAttribute<T: AttributeValueStorable>(_ value: T?, forKey key: String, at position: Int) {
        let stored: AttributeValue
        if let value { stored = value.storedAttributeValue } else { stored = .null }
        if !setStorableValue(stored, ofType: T.storedAttributeType, forKey: key, at: position) {
            self[key] = value
        }
    }

    /// Sets the attribute at `position` to `value`, when the property there is named `key`
    /// and is a settable attribute of `type`; false, with nothing changed, otherwise (the
    /// caller then takes the checked path by name).
    @usableFromInline
    package func setStorableValue(
        _ value: AttributeValue, ofType type: AttributeType, forKey key: String, at position: Int
    ) -> Bool {
        let plans = schema.plans
        guard position >= 0, position < plans.count else { return false }
        // Through a pointer: `plans[position].name` may copy the whole plan out first.
        let matches = plans.withUnsafeBufferPointer { plans in
            plans[position].settableAttributeType == type && plans[position].name == key
        }
        guard matches else { return false }
        setAttributeValue(value, at: position, named: key)
        return true
    }

    /// Sets a transformable attribute, by position (see `setAttribute(_:forKey:at:)`).
    ///
    /// The value is kept as it is; the attribute's transformer encodes it when the object is
    /// saved. It must be `Sendable`: a save or a merge may carry it to another thread.
    public func setTransformableAttribute<T: Sendable>(_ value: T?, forKey key: String, at position: Int) {
        let plans = schema.plans
        guard position >= 0, position < plans.count, plans[position].settableAttributeType == .transformable,
            plans[position].name == key, T.self != (any Sendable).self, !(T.self is any OptionalValue.Type)
        else {
            // The checked path, by name: a `T` that is an existential or itself optional (an
            // `any Sendable` holding an optional is opened as one) may hold a nil inside.
            if let context = managedObjectContext, !context.isOnQueue {
                context.performAndWait { setTransformableAttribute(value, forKey: key, at: -1) }
                return
            }
            do { try assignSendable(value, forKey: key) } catch { preconditionFailure("\(error)") }
            return
        }
        setAttributeValue(value.map { .transformable($0) } ?? .null, at: position)
    }

    /// Sets a to-one relationship by position, keeping the inverse in step (see
    /// `setAttribute(_:forKey:at:)` for the position).
    ///
    /// A destination of the wrong entity or of another context stops the program, as
    /// `setObject(_:forKey:)` does.
    public func setObject(_ object: ManagedObject?, forKey key: String, at position: Int) {
        let plans = schema.plans
        guard position >= 0, position < plans.count, plans[position].kind == .toOne, plans[position].name == key
        else {
            setObject(object, forKey: key)
            return
        }
        do { try setObject(object, at: position) } catch { preconditionFailure("\(error)") }
    }
}

extension PropertyPlan {
    /// The slot of a newly inserted object: the attribute's default value, no destination,
    /// or an empty to-many.
    var initialSlot: Slot {
        switch kind {
        case .attribute, .derivedAttribute: return .value(defaultValue ?? .null)
        case .toOne: return .toOne(nil)
        case .toMany: return .toMany([])
        }
    }
}
