import PersistenceModel
import PersistenceStore
/// Registry entries keyed by 64-bit numbers (a row's primary key, or an unsaved object's
/// number): an open-addressing hash table with linear probing.
///
/// A large fetch adds an entry per object and each object removes its own as it goes, so
/// these operations sit on the hottest path there is. `Dictionary` hashes every key with
/// SipHash, and its hashing, probing and growing are a noticeable share of such a fetch. Here a
/// key's home bucket is a multiplicative (Fibonacci) hash, a multiply and a shift.
///
/// A key's home keeps the cache in mind without trusting the keys' order. Keeping every run
/// of consecutive keys in consecutive buckets would not do: keys the store hands out are
/// dense, and while the table is smaller than their range, whole blocks of them land on the
/// same stretch of buckets: one run thousands of entries long, which every insert into its
/// middle shifts. A search, which registers its rows in rank order rather than key order,
/// would be quadratic (a descending walk worst of all). A home scattered for every key
/// keeps runs short in any order, but then each of a fetch's rows touches a cache line of its
/// own (the table of 100,000 books is two megabytes), in the lookup and again in the removal.
/// So keys are scattered in aligned groups of sixteen: sixteen consecutive keys (a group)
/// share a window of sixteen buckets, four cache lines, and the groups are scattered by a
/// multiplicative (Fibonacci) hash. A run can span a few windows where groups collide, never
/// thousands of buckets, whatever the order.
///
struct PrimaryKeyHashTable {
    private struct Bucket {
        var key: UInt64 = 0
        /// Empty (not occupied) for an empty bucket.
        var entry = RegistryEntry()
    }

    private var buckets: [Bucket] = []
    /// log2 of the number of buckets (0 while there are none).
    private var bits = 0
    /// The number of entries.
    private(set) var count = 0

    /// The entry under `key`, if any.
    subscript(key: UInt64) -> RegistryEntry? {
        index(of: key).map { buckets[$0].entry }
    }

    /// Sets the entry under `key` (an occupied one), replacing any.
    mutating func set(_ entry: RegistryEntry, forKey key: UInt64) {
        assert(entry.isOccupied, "an empty entry is no entry: remove the key instead")
        let (index, found) = probe(for: key)
        if found { buckets[index].entry = entry } else { insert(Bucket(key: key, entry: entry), at: index) }
    }

    /// The live object under `key`, or where a new entry for `key` goes (see
    /// `insert(_:forKey:at:)`): one probe finds either.
    mutating func lookUp(_ key: UInt64) -> (object: ManagedObject?, index: Int) {
        // An occupied bucket always holds an object: found means registered.
        let (index, found) = probe(for: key)
        return (found ? buckets[index].entry.object : nil, index)
    }

    /// Registers `object` under `key`, which is not in the table, at the `index` its
    /// `lookUp(_:)` gave: valid only while the table has not changed since.
    mutating func insert(_ object: ManagedObject, forKey key: UInt64, at index: Int) {
        insert(Bucket(key: key, entry: RegistryEntry(object)), at: index)
    }

    /// Removes the entry under `key`, if it is for the object with identity `identity` when
    /// one is given.
    mutating func remove(_ key: UInt64, ifHolding identity: ObjectIdentifier? = nil) {
        guard var hole = index(of: key) else { return }
        if let identity, !buckets[hole].entry.holds(identity) { return }
        // Backward shift: the rest of the run moves back one bucket, up to an empty bucket or
        // an entry in its own home (which, by the order, starts the next group of homes).
        let mask = buckets.count - 1
        var next = (hole + 1) & mask
        while buckets[next].entry.isOccupied, distance(at: next) > 0 {
            buckets[hole] = buckets[next]
            hole = next
            next = (next + 1) & mask
        }
        buckets[hole] = Bucket()
        count -= 1
    }

    /// Every entry.
    var entries: [RegistryEntry] { buckets.filter(\.entry.isOccupied).map(\.entry) }

    /// Removes every entry.
    mutating func removeAll() {
        buckets = []
        bits = 0
        count = 0
    }

    // MARK: - Internals

    /// The bucket a key's probe starts at: in the window chosen by the top `bits - 4` bits of
    /// the group number times 2^64/φ (which spreads consecutive groups, and groups a power of
    /// two apart, evenly over the table), at the key's place in its group turned by other bits
    /// of that product, so that keys sixteen apart (one a group) do not all start at their
    /// windows' first bucket.
    private func home(of key: UInt64) -> Int {
        let product = (key >> UInt64(Self.groupBits)) &* 0x9E37_79B9_7F4A_7C15
        let windowBits = UInt64(bits - Self.groupBits)
        let window = windowBits == 0 ? 0 : product >> (64 - windowBits)
        let place = (key &+ (product >> 20)) & Self.groupMask
        return Int(truncatingIfNeeded: window << UInt64(Self.groupBits) | place)
    }

    /// log2 of the keys in a group, and of the buckets in a window; the table's least size.
    private static let groupBits = 4
    private static let groupMask: UInt64 = (1 << 4) - 1

    /// How far the entry at `index` sits past its home bucket.
    private func distance(at index: Int) -> Int {
        (index - home(of: buckets[index].key)) & (buckets.count - 1)
    }

    private func index(of key: UInt64) -> Int? {
        guard !buckets.isEmpty else { return nil }
        let found = find(key)
        return found.found ? found.index : nil
    }

    /// The bucket holding `key`, or the one where it belongs in its run (empty, or held by an
    /// entry whose home lies past the key's).
    private func find(_ key: UInt64) -> (index: Int, found: Bool) {
        let mask = buckets.count - 1
        var index = home(of: key)
        var distance = 0
        while buckets[index].entry.isOccupied {
            if buckets[index].key == key { return (index, true) }
            if self.distance(at: index) < distance { return (index, false) }
            index = (index + 1) & mask
            distance += 1
        }
        return (index, false)
    }

    /// As `find(_:)`, growing the table first when one more entry would fill it past seven
    /// eighths. Ordered (Robin Hood) probing keeps searches short at that load; a table grown
    /// at three quarters would be three eighths full after each growth, and so larger for the
    /// same entries.
    private mutating func probe(for key: UInt64) -> (index: Int, found: Bool) {
        if (count + 1) * 8 > buckets.count * 7 { grow() }
        return find(key)
    }

    /// Puts `bucket` at `index` (where `find` says its key belongs), shifting the rest of the
    /// run forward one bucket.
    private mutating func insert(_ bucket: Bucket, at index: Int) {
        let mask = buckets.count - 1
        var carried = bucket
        var index = index
        while buckets[index].entry.isOccupied {
            swap(&carried, &buckets[index])
            index = (index + 1) & mask
        }
        buckets[index] = carried
        count += 1
    }

    /// Grows the table, at once, to hold `count` entries without growing again.
    mutating func reserveCapacity(_ count: Int) {
        var bits = max(self.bits, Self.groupBits)
        while count * 8 > (1 << bits) * 7 { bits += 1 }
        if bits > self.bits { grow(to: bits) }
    }

    private mutating func grow() {
        grow(to: max(bits + 1, Self.groupBits))
    }

    private mutating func grow(to bits: Int) {
        let old = buckets
        self.bits = bits
        buckets = Array(repeating: Bucket(), count: 1 << bits)
        count = 0
        for bucket in old where bucket.entry.isOccupied { insert(bucket, at: find(bucket.key).index) }
    }
}
