import PersistenceModel

/// A lightweight migration from one model version to the next, inferred by
/// `MigrationPlan.infer(from:to:)`: the steps it takes and how destination entities and
/// properties map onto the source's.
///
/// A plan is computed from the two models alone, before any store is touched; whatever
/// inference cannot do is refused then with a `MigrationError` naming entity, property and
/// reason. Inference is the same for every store; each store runs plans in its own SQL
/// (the SQLite store's `StoreMigrator`; the PostgreSQL store as it opens).
public struct MigrationPlan: Sendable, CustomStringConvertible {
    /// The model the store was written with (frozen).
    public let source: ManagedObjectModel
    /// The model the store is migrated to (frozen).
    public let destination: ManagedObjectModel
    /// The changes, entity by entity.
    public let steps: [MigrationStep]

    /// For each destination entity that existed before, the source entity it comes from.
    package let sourceEntityNames: [String: String]
    /// For each destination entity, its own properties that existed before: destination
    /// property name → source property name (in the source entity).
    package let sourcePropertyNames: [String: [String: String]]

    /// A plan of the given steps and maps (what `infer(from:to:)` makes; stores make plans
    /// of their own only for changes version hashes do not see, such as indexes).
    package init(
        source: ManagedObjectModel, destination: ManagedObjectModel, steps: [MigrationStep],
        sourceEntityNames: [String: String], sourcePropertyNames: [String: [String: String]]
    ) {
        self.source = source
        self.destination = destination
        self.steps = steps
        self.sourceEntityNames = sourceEntityNames
        self.sourcePropertyNames = sourcePropertyNames
    }

    /// Whether the plan changes the tables (anything beyond version hash modifiers and
    /// changes that only the model sees).
    package var rebuildsTables: Bool {
        steps.contains { !Self.modelOnlyKinds.contains($0.kind) }
    }

    /// Changes that leave the tables as they are (indexes are created and dropped in place,
    /// values re-encoded for a new value transformer in place).
    package static let modelOnlyKinds: Set<MigrationStep.Kind> = [
        .changeHashModifier, .makeOptional, .addIndex, .removeIndex, .changeTransformer,
    ]

    /// Whether existing values are lost by some step.
    public var losesData: Bool { steps.contains(where: \.losesData) }

    /// The source model's version identifier, or "?" when it has none.
    public var sourceVersionName: String { source.versionIdentifier ?? "?" }

    /// The destination model's version identifier, or "?" when it has none.
    public var destinationVersionName: String { destination.versionIdentifier ?? "?" }

    /// The plan as lines: a heading naming both versions, then one line per step.
    public var description: String {
        var lines = ["Migration from model version \(sourceVersionName) to \(destinationVersionName):"]
        if steps.isEmpty { lines.append("  no schema changes") }
        for step in steps { lines.append("  \(step)") }
        return lines.joined(separator: "\n")
    }

    /// The source entity a destination entity comes from, if any.
    package func sourceEntity(for destinationName: String) -> String? { sourceEntityNames[destinationName] }

    /// The destination entity a source entity becomes, if any.
    package func destinationEntity(for sourceName: String) -> String? {
        sourceEntityNames.first { $0.value == sourceName }?.key
    }

    /// Infers the plan that migrates a store from `source` to `destination`, as Core Data's
    /// lightweight migration does. Both models are validated and frozen.
    ///
    /// - Throws: `ModelError` for an invalid model; `MigrationError` (`.cannotInfer`) naming
    ///   entity, property and reason for a change that needs a mapping model.
    public static func infer(from source: ManagedObjectModel, to destination: ManagedObjectModel) throws -> MigrationPlan {
        try source.freeze()
        try destination.freeze()
        var inference = MigrationInference(source: source, destination: destination)
        try inference.run()
        return MigrationPlan(
            source: source, destination: destination, steps: inference.steps,
            sourceEntityNames: inference.entityMap, sourcePropertyNames: inference.propertyMap)
    }
}
