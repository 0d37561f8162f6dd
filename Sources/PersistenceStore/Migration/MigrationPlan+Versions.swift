import PersistenceModel

extension MigrationPlan {
    /// The version hashes of a model's entities as stores record them: lowercase
    /// hexadecimal, by entity name.
    package static func recordedVersionHashes(of model: ManagedObjectModel) -> [String: String] {
        model.entityVersionHashesByName.mapValues(\.hexString)
    }

    /// How a store's recorded version hashes differ from a model's, one phrase an entity in
    /// name order ("entity Book changed"): what a store refusing to open with that model says.
    package static func differences(stored: [String: String], current: [String: String]) -> [String] {
        Set(stored.keys).union(current.keys).sorted().compactMap { name in
            switch (stored[name], current[name]) {
            case (nil, _?): return "entity \(name) is new"
            case (_?, nil): return "entity \(name) is gone"
            case (let a?, let b?) where a != b: return "entity \(name) changed"
            default: return nil
            }
        }
    }

    /// The plans from the version whose hashes are `stored` to `destination`. Of several
    /// versions with those hashes, the one named `recordedVersion` (the version the store
    /// records) is the source, else the last.
    package static func plans(
        fromVersionHashes stored: [String: String], to destination: ManagedObjectModel, versions: [ManagedObjectModel],
        recordedVersion: String? = nil
    ) throws -> [MigrationPlan] {
        func hashes(_ model: ManagedObjectModel) -> [String: String] {
            recordedVersionHashes(of: model)
        }
        let target = hashes(destination)
        if stored == target { return [] }  // (index-only differences: see `plans()`)
        let recordedIndex = recordedVersion.flatMap { name in
            versions.lastIndex { $0.versionIdentifier == name && hashes($0) == stored }
        }
        guard let sourceIndex = recordedIndex ?? versions.lastIndex(where: { hashes($0) == stored }) else {
            let names = versions.map { $0.versionIdentifier ?? "?" }
            throw MigrationError(
                .unknownSourceModel,
                reason: "its version hashes match none of the \(versions.count) model versions given"
                    + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))")
                    + ", so the model that wrote it is unknown")
        }
        var chain = [versions[sourceIndex]]
        if let destinationIndex = versions.lastIndex(where: { hashes($0) == target }), destinationIndex > sourceIndex {
            for model in versions[(sourceIndex + 1)...destinationIndex] where hashes(model) != hashes(chain.last ?? model) {
                chain.append(model)
            }
            chain[chain.count - 1] = destination
        } else {
            chain.append(destination)
        }
        return try zip(chain, chain.dropFirst()).map { try MigrationPlan.infer(from: $0, to: $1) }
    }

    /// For a store whose version hashes are the destination's: the plan from the version
    /// the store records, when that is another of `versions` and a value transformer
    /// changed since; nil otherwise.
    package static func transformerPlan(
        from recorded: String?, to destination: ManagedObjectModel, versions: [ManagedObjectModel]
    ) throws -> MigrationPlan? {
        guard let recorded, recorded != destination.versionIdentifier,
            let writer = versions.last(where: { $0.versionIdentifier == recorded }),
            writer.entityVersionHashesByName == destination.entityVersionHashesByName
        else { return nil }
        let plan = try infer(from: writer, to: destination)
        return plan.steps.contains { $0.kind == .changeTransformer } ? plan : nil
    }
}
