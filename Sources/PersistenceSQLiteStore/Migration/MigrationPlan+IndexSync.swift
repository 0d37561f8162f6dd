import PersistenceModel
import PersistenceStore

extension MigrationPlan {
    /// A plan that only brings a store's indexes in line with `model`, for a store whose
    /// version hashes already match (indexes are not part of version hashes); nil when the
    /// store has exactly the model's indexes. `existing` names the store's indexes on
    /// entity tables.
    package static func indexSync(for model: ManagedObjectModel, existing: Set<String>) throws -> MigrationPlan? {
        try model.freeze()
        let schema = StoreSchema(model: model)
        let expected = MigrationExecutor.entityIndexes(of: schema)
        let wanted = Set(expected.keys)
        guard wanted != existing else { return nil }
        var steps: [MigrationStep] = []
        for name in wanted.subtracting(existing).sorted() {
            steps.append(MigrationStep(.addIndex, entity: expected[name]?.table ?? "?", detail: "index \(name) added"))
        }
        for name in existing.subtracting(wanted).sorted() {
            steps.append(MigrationStep(.removeIndex, entity: name.split(separator: "_").first.map(String.init) ?? "?", detail: "index \(name) removed"))
        }
        return MigrationPlan(
            source: model, destination: model, steps: steps, sourceEntityNames: [:], sourcePropertyNames: [:])
    }
}
