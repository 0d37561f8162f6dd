import Foundation
import PersistenceModel
import PersistenceStore

/// Derived `@count` and `@sum` values that destinations keep over the to-manys batch rows
/// join or leave (`Author.bookCount` = `books.@count`).
///
/// A save of objects recomputes them because the destination changes through the inverse;
/// batch rows make no objects, so the writer recomputes them from the store once the rows
/// are written: for every destination a row linked to, and, when rows merged into stored
/// ones, for every destination a merged row left. The latter are caught by a temporary
/// trigger on the link's column, which sees each old value as SQLite replaces it, whatever
/// unique index the merge went through.
extension BatchInsertWriter {
    /// A to-one the rows may set whose inverse some destination entity aggregates over.
    struct AggregatedLink {
        /// The to-one's name (its column).
        let name: String
        /// The to-many on the destination's side.
        let inverse: String
        /// The entity that declares the to-one: its rows (sub-entities' included) make up the
        /// inverse to-many.
        let declaringEntity: String
        /// The destination entity.
        let destination: String
    }

    /// The to-ones whose inverse a destination entity, or one of its sub-entities, keeps a
    /// derived `@count` or `@sum` over.
    static func aggregatedLinks(of template: BatchInsertTemplate, positions: [Int], model: ManagedObjectModel) -> [AggregatedLink] {
        positions.compactMap { position in
            guard case .relationship(let toOne) = template.schema.properties[position], let inverseName = toOne.inverseName,
                let destination = model.schema(for: toOne.destinationEntityName),
                let inverse = destination.relationship(named: inverseName)
            else { return nil }
            let aggregated = destination.hierarchyNames.contains { name in
                model.schema(for: name)?.derivations.contains { $0.derivation.aggregatedRelationship == inverseName } ?? false
            }
            guard aggregated else { return nil }
            return AggregatedLink(
                name: toOne.name, inverse: inverseName, declaringEntity: inverse.destinationEntityName,
                destination: toOne.destinationEntityName)
        }
    }


    /// Runs `body`, the writing of the rows, noting the destinations that merged rows leave;
    /// returns them by link name.
    func notingDestinationsLeft(
        in transaction: any StoreTransaction, _ body: () throws -> Void
    ) throws -> [(relationship: String, key: Int64)] {
        guard updatesConflicts, !aggregatedLinks.isEmpty else {
            try body()
            return []
        }
        return try transaction.notingDestinationsLeft(
            entity: template.schema.name, relationships: aggregatedLinks.map(\.name), body)
    }

    /// Recomputes and writes the aggregates of every destination the rows linked to or left.
    /// Registered destinations get the new values as saved (not as changes).
    ///
    /// - Parameters:
    ///   - linked: every destination a row linked to.
    ///   - left: the destinations merged rows left, by link name and key.
    /// - Throws: `ObjectAccessError` when a value does not fit its attribute; the store's failure.
    func updateAggregates(
        linked: some Sequence<ManagedObject>, left: [(relationship: String, key: Int64)],
        in transaction: any StoreTransaction
    ) throws {
        guard !aggregatedLinks.isEmpty else { return }
        let model = context.model
        var done: Set<TrumpedRow> = []
        for destination in linked {
            guard let key = destination.rowKey,
                done.insert(TrumpedRow(rootName: destination.schema.rootName, key: key)).inserted
            else { continue }
            try updateAggregates(of: destination.schema, key: key, object: destination, transaction)
        }
        for (name, key) in left {
            guard let link = aggregatedLinks.first(where: { $0.name == name }),
                let root = model.schema(for: link.destination).flatMap({ model.schema(for: $0.rootName) }),
                done.insert(TrumpedRow(rootName: root.name, key: key)).inserted
            else { continue }
            // The row's own entity, which may be a sub-entity with aggregates of its own.
            let schema = try transaction.entityName(rootEntity: root.name, key: key).flatMap(model.schema(for:)) ?? root
            let id = ObjectID(
                scope: context.idScope(for: schema),
                key: .permanent(key))
            try updateAggregates(of: schema, key: key, object: context.registry[id]?.object, transaction)
        }
    }

    /// Recomputes and writes one destination's aggregates over the links' inverses.
    private func updateAggregates(
        of schema: EntitySchema, key: Int64, object: ManagedObject?, _ transaction: any StoreTransaction
    ) throws {
        for (position, derivation) in schema.derivations {
            guard let relationship = derivation.aggregatedRelationship,
                let link = aggregatedLinks.first(where: { $0.inverse == relationship && schema.isKind(of: $0.destination) })
            else { continue }
            let raw: AttributeValue
            do {
                raw = try transaction.aggregate(derivation, members: link.declaringEntity, linkedBy: link.name, to: key)
            } catch let error as DecimalSumError {
                throw ObjectAccessError(
                    entity: schema.name, key: schema.plans[position].name, reason: "it derives '\(derivation)', but \(error)")
            }
            guard let value = try DerivedValues.converted(raw, at: position, of: schema, derivation: derivation) else {
                continue
            }
            try transaction.setValues([(position, value)], of: schema, key: key)
            guard let object, !object.isFault else { continue }
            object.setAttributeValue(value, at: position, notify: false)
            object.committedSlots?[position] = .value(value)
        }
    }

}

extension Derivation {
    /// The to-many a `@count` or `@sum` aggregates over; nil for other derivations.
    var aggregatedRelationship: String? {
        switch self {
        case .count(let relationship), .sum(let relationship, _): return relationship
        default: return nil
        }
    }
}
