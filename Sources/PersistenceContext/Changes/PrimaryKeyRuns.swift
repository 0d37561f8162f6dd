/// A set of primary keys held as sorted runs of consecutive keys: what a long group of saves
/// (`performAtomicSaves`) remembers of the rows it changed until it announces them.
///
/// The rows of one large command come in runs (a seed's books have consecutive keys, and so
/// have the books a redo brings back), so 200,000 of them take a few runs instead of a
/// `Set<ObjectID>` of 24 bytes a bucket, 12.7 MB. Keys that fall outside the runs once there
/// are many (`runLimit`) go to a plain set, 8 bytes a bucket, so that scattered keys cost no
/// more than a set and an insertion never moves more than `runLimit` runs.
struct PrimaryKeyRuns: Sendable {
    /// Disjoint, sorted, never adjacent: two runs that touch are merged.
    private var runs: [ClosedRange<Int64>] = []
    /// Keys in no run (when there were already `runLimit` runs); disjoint from the runs.
    private var stragglers: Set<Int64> = []
    /// How many keys the set holds.
    private(set) var count = 0

    /// How many runs an insertion may shift before a key goes to `stragglers` instead.
    static let runLimit = 1 << 14

    var isEmpty: Bool { count == 0 }

    /// How many runs hold the keys (what the set costs: 16 bytes a run).
    var runCount: Int { runs.count }

    /// Whether `key` is in the set.
    func contains(_ key: Int64) -> Bool {
        runIndex(containing: key) != nil || stragglers.contains(key)
    }

    /// Adds `key`; false when it was there already.
    @discardableResult
    mutating func insert(_ key: Int64) -> Bool {
        if contains(key) { return false }
        count += 1
        let next = firstRun(above: key)
        let joinsPrevious = next > 0 && runs[next - 1].upperBound &+ 1 == key
        let joinsNext = next < runs.count && key &+ 1 == runs[next].lowerBound
        switch (joinsPrevious, joinsNext) {
        case (true, true):
            runs[next - 1] = runs[next - 1].lowerBound...runs[next].upperBound
            runs.remove(at: next)
        case (true, false):
            runs[next - 1] = runs[next - 1].lowerBound...key
        case (false, true):
            runs[next] = key...runs[next].upperBound
        case (false, false):
            if next == runs.count || runs.count < Self.runLimit {
                runs.insert(key...key, at: next)
            } else {
                stragglers.insert(key)
            }
        }
        return true
    }

    /// Takes `key` out; false when it was not there.
    @discardableResult
    mutating func remove(_ key: Int64) -> Bool {
        if stragglers.remove(key) != nil {
            count -= 1
            return true
        }
        guard let index = runIndex(containing: key) else { return false }
        count -= 1
        let run = runs[index]
        if run.lowerBound == run.upperBound {
            runs.remove(at: index)
        } else if key == run.lowerBound {
            runs[index] = (key + 1)...run.upperBound
        } else if key == run.upperBound {
            runs[index] = run.lowerBound...(key - 1)
        } else {
            runs[index] = run.lowerBound...(key - 1)
            runs.insert((key + 1)...run.upperBound, at: index + 1)
        }
        return true
    }

    /// Calls `body` with every key: the runs' in order, then the others'.
    func forEach(_ body: (Int64) -> Void) {
        for run in runs {
            for key in run { body(key) }
        }
        for key in stragglers { body(key) }
    }

    // MARK: - Internals

    /// The index of the first run whose keys are all above `key` (`runs.count` if none).
    private func firstRun(above key: Int64) -> Int {
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].lowerBound > key { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private func runIndex(containing key: Int64) -> Int? {
        let candidate = firstRun(above: key) - 1
        guard candidate >= 0, runs[candidate].upperBound >= key else { return nil }
        return candidate
    }
}
