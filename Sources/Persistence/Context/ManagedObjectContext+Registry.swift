extension ManagedObjectContext {
    /// Registers `object` under `id`, sweeping out entries whose objects are gone once the
    /// registry has doubled since the last sweep.
    ///
    /// Entries are weak, but each still holds its ID: without the sweep, streaming a
    /// million books through `forEach` kept a million dead entries (about 300 bytes each)
    /// and `books list --by-month` grew past 64 MB. Sweeping at doubling keeps the cost
    /// amortised constant per registration.
    func register(_ object: ManagedObject, as id: ObjectID) {
        if registry.count >= registrySweepThreshold {
            // Remove in place: when most entries are alive (a fetch into an array), this is
            // one scan, not a rebuilt dictionary.
            let dead = registry.compactMap { $0.value.object == nil ? $0.key : nil }
            for id in dead { registry.removeValue(forKey: id) }
            registrySweepThreshold = Swift.max(Self.minimumSweepThreshold, registry.count * 2)
        }
        registry[id] = WeakObject(object)
    }

    /// The registry size below which no sweep happens.
    static let minimumSweepThreshold = 4_096
}
