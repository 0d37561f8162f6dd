import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObject {
    // MARK: - Transients computed on demand (see `computedTransients`)

    /// Computes the transient at `position` if it is stale; a no-op for any other position.
    /// Called by `attributeValue(at:)`, so that every reader (getters, predicates, sections,
    /// sort keys) sees a current value.
    package func computeTransientIfStale(at position: Int) {
        guard position < 64, staleTransients & (1 << UInt64(position)) != 0 else { return }
        staleTransients &= ~(1 << UInt64(position))
        storeComputedValue(computedValue(at: position), at: position)
    }

    /// The class's value for the transient at `position`: the typed one when it gives one
    /// (`computeTransientAttributeValue(forKey:)`), else `computeTransientValue(forKey:)`'s
    /// converted to the attribute's type.
    private func computedValue(at position: Int) -> AttributeValue {
        let key = schema.propertyNames[position]
        if let value = computeTransientAttributeValue(forKey: key) { return conforming(value, at: position) }
        let value = computeTransientValue(forKey: key)
        return fastCoerce(value, at: position) ?? coerceComputed(value, at: position)
    }

    /// A typed result as it is when its case is the attribute's type (or null) for the usual
    /// types, String and Date; anything else through `AttributeValue.coerce`.
    private func conforming(_ value: AttributeValue, at position: Int) -> AttributeValue {
        let bit: UInt64 = position < 64 ? 1 << UInt64(position) : 0
        switch value {
        case .null: return value
        case .string where (transientComputation?.stringMask ?? 0) & bit != 0: return value
        case .date where (transientComputation?.dateMask ?? 0) & bit != 0: return value
        default: return coerceComputed(value, at: position)
        }
    }

    /// The common results (nil, a String for a String attribute, a Date for a Date one)
    /// converted without `AttributeValue.coerce`, which first tries the value as an
    /// `AttributeValue` and copies the attribute's description; nil for any other.
    private func fastCoerce(_ value: Any?, at position: Int) -> AttributeValue? {
        guard let value else { return .null }
        let bit: UInt64 = 1 << UInt64(position)
        if let computation = transientComputation {
            if computation.stringMask & bit != 0, let string = value as? String { return .string(string) }
            if computation.dateMask & bit != 0, let date = value as? Date { return .date(date) }
        }
        return nil
    }

    private func coerceComputed(_ value: Any?, at position: Int) -> AttributeValue {
        guard case .attribute(let attribute) = schema.properties[position] else { return .null }
        do { return try AttributeValue.coerce(value, to: attribute) } catch {
            preconditionFailure(
                "\(schema.name).computeTransientValue(forKey: \"\(attribute.name)\") returned a value that does not fit: "
                    + error.reason)
        }
    }

    /// Marks every computed transient stale (after the values were replaced wholesale), or,
    /// for an entity whose transients sit past position 63, computes them now.
    package func invalidateComputedTransients() {
        guard let computation = transientComputation else { return }
        staleTransients = computation.lazyMask
        for position in computation.eagerPositions { computeEagerly(at: position) }
    }

    /// Marks stale the transients that depend on the attribute at `position` (it changed),
    /// and marks as current the transient at `position` itself when it was set directly.
    package func attributeDidChange(at position: Int) {
        guard let computation = transientComputation else { return }
        if position < 64 { staleTransients &= ~(1 << UInt64(position)) }
        staleTransients |= computation.lazyDependents[position]
        for dependent in computation.eagerDependents[position] { computeEagerly(at: dependent) }
    }

    private func computeEagerly(at position: Int) {
        storeComputedValue(computedValue(at: position), at: position)
    }

    /// Stores a computed value as fetched: in the values and in the committed values, so that
    /// it is no change. When both arrays are still one buffer (a fetched object nobody has
    /// changed), the buffer is written in place instead of being copied.
    private func storeComputedValue(_ value: AttributeValue, at position: Int) {
        guard committedSlots != nil else { return slots.setValue(value, at: position) }
        // Told apart first, so that no binding of the committed values is alive (and holds
        // the storage) while the value is written.
        if committedSlots.map(slots.sharesStorage(with:)) == true {
            committedSlots = nil
            slots.setValue(value, at: position)
            committedSlots = slots
        } else {
            slots.setValue(value, at: position)
            committedSlots?.setValue(value, at: position)
        }
    }
}

/// Which transients a class computes on demand, resolved to positions of one entity once
/// per context (see `ManagedObject.computedTransients`).
package final class TransientComputation: Sendable {
    /// The computed transients at positions under 64, as a bit mask.
    let lazyMask: UInt64
    /// Those of `lazyMask` that are String attributes, and Date attributes.
    let stringMask: UInt64
    let dateMask: UInt64
    /// For each property position, the lazily computed transients that depend on it.
    let lazyDependents: [UInt64]
    /// Computed transients at positions 64 and above, computed whenever a value changes.
    let eagerPositions: [Int]
    /// For each property position, the eagerly computed transients that depend on it.
    let eagerDependents: [[Int]]

    /// The computation for `type`'s declared transients in `schema`; nil when there are none.
    init?(_ type: ManagedObject.Type, schema: EntitySchema) {
        let declared = type.computedTransients
        guard !declared.isEmpty else { return nil }
        var lazyMask: UInt64 = 0
        var stringMask: UInt64 = 0
        var dateMask: UInt64 = 0
        var lazyDependents = [UInt64](repeating: 0, count: schema.properties.count)
        var eagerPositions: [Int] = []
        var eagerDependents = [[Int]](repeating: [], count: schema.properties.count)
        for (key, dependencies) in declared.sorted(by: { $0.key < $1.key }) {
            guard let position = schema.propertyIndex[key], case .attribute(let attribute) = schema.properties[position],
                attribute.isTransient
            else { continue }
            let sources = dependencies.compactMap { schema.propertyIndex[$0] }
            if position < 64 {
                lazyMask |= 1 << UInt64(position)
                if attribute.type == .string { stringMask |= 1 << UInt64(position) }
                if attribute.type == .date { dateMask |= 1 << UInt64(position) }
                for source in sources { lazyDependents[source] |= 1 << UInt64(position) }
            } else {
                eagerPositions.append(position)
                for source in sources { eagerDependents[source].append(position) }
            }
        }
        guard lazyMask != 0 || !eagerPositions.isEmpty else { return nil }
        self.lazyMask = lazyMask
        self.stringMask = stringMask
        self.dateMask = dateMask
        self.lazyDependents = lazyDependents
        self.eagerPositions = eagerPositions
        self.eagerDependents = eagerDependents
    }
}
