import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// The differential fuzz test: random predicates and sorts (`FuzzRequestGenerator`) over
/// random objects (`FuzzLibrary`), answered by every store of the build and by the in-memory
/// evaluator, the reference (`PredicateEvaluator` to filter, `SortValueOrder` to sort, ties
/// by the store's key, then the window). Every store must give the same objects in the same
/// order, and count them alike; a request the evaluator refuses must be refused too.
///
/// `DIFFERENTIAL_FUZZ_CASES` sets the number of requests per store (300 by default; thousands
/// for the long form) and `DIFFERENTIAL_FUZZ_SEED` the seed (fixed by default, so that every
/// run checks the same cases). A mismatch prints the seed, the case's number, its request and
/// both answers, to replay with the same two variables.
@Suite struct DifferentialFuzzTests {
    /// Requests per store, and per set of random objects.
    static let caseCount = ProcessInfo.processInfo.environment["DIFFERENTIAL_FUZZ_CASES"].flatMap { Int($0) } ?? 300
    static let casesPerLibrary = 60
    static let seed = ProcessInfo.processInfo.environment["DIFFERENTIAL_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_261_129
    /// Mismatches reported before a store's run stops.
    static let reportedMismatches = 10

    @Test(arguments: StoreFactories.all)
    func everyStoreAnswersAsTheInMemoryEvaluator(_ factory: StoreFactory) throws {
        var mismatches = 0
        var generator = FuzzRequestGenerator(
            random: SeededGenerator(seed: Self.seed), decimals: FuzzLibrary.decimals(keepsEveryDigit: factory.keepsEveryDecimalDigit))
        var caseNumber = 0
        var library = 0
        while caseNumber < Self.caseCount && mismatches < Self.reportedMismatches {
            let librarySeed = Self.seed &+ UInt64(library) &* 7919
            let fuzzed = try FuzzedStore(factory, seed: librarySeed)
            for _ in 0..<Self.casesPerLibrary where caseNumber < Self.caseCount && mismatches < Self.reportedMismatches {
                let (request, format, arguments) = try generator.request()
                if let mismatch = fuzzed.mismatch(request) {
                    mismatches += 1
                    Issue.record(
                        """
                        \(factory.name): case \(caseNumber) of DIFFERENTIAL_FUZZ_SEED=\(Self.seed) (library seed \(librarySeed)):
                          \(request.entityName)\(request.includesSubentities ? "" : " (no sub-entities")) WHERE \(format)
                          arguments: \(arguments.map { "\($0.map { "\($0)" } ?? "nil")" })
                          search: \(request.searchText.map { "\"\($0)\" in \(request.searchKeyPaths)" } ?? "none")
                          sorts: \(request.sortDescriptors.map { "\($0.keyPath) \($0.ascending ? "ASC" : "DESC")" }), \
                        limit \(request.fetchLimit.map(String.init) ?? "none"), offset \(request.fetchOffset)
                          \(mismatch)
                        """)
                }
                caseNumber += 1
            }
            library += 1
        }
    }
}

/// One random library saved in a store, beside the same objects unsaved in memory.
private final class FuzzedStore {
    let subject: StoreUnderTest
    /// The unsaved objects the reference answers over.
    let reference: FuzzLibrary.Objects
    private let referenceContainer: PersistentContainer
    /// The store's key of each object, by hierarchy and serial number.
    private var keys: [String: [Int64: Int64]] = [:]

    init(_ factory: StoreFactory, seed: UInt64) throws {
        subject = try factory.make(FuzzLibrary.model())
        let saved = try FuzzLibrary.insert(
            seed: seed, keepsEveryDecimalDigit: factory.keepsEveryDecimalDigit, into: subject.context)
        try subject.context.save()
        referenceContainer = try PersistentContainer(model: FuzzLibrary.model(), storeURL: nil)
        reference = try FuzzLibrary.insert(
            seed: seed, keepsEveryDecimalDigit: factory.keepsEveryDecimalDigit, into: referenceContainer.viewContext)
        for object in saved.people + saved.items + saved.tags {
            keys[object.schema.rootName, default: [:]][object.serial] = object.objectID.primaryKey
        }
    }

    /// What differs between the store's answer to `request` and the evaluator's, or nil.
    func mismatch(_ request: FetchRequest) -> String? {
        let expected: Result<[String], any Error> = Result { try self.expected(request) }
        let stored: Result<[String], any Error> = Result {
            var objects: [String] = []
            try subject.store.forEachRow(request) { row in
                objects.append("\(row.schema.name) \(row.serial)")
                return true
            }
            return objects
        }
        switch (expected, stored) {
        case (.success(let expected), .success(let stored)):
            if expected != stored { return "store: \(stored)\n  evaluator: \(expected)" }
            do {
                let count = try subject.store.count(for: request)
                if count != expected.count { return "count(for:) \(count), evaluator \(expected.count)" }
            } catch { return "count(for:) threw \(error); evaluator counted \(expected.count)" }
            return nil
        case (.failure, .failure): return nil
        case (.success(let expected), .failure(let error)): return "store threw \(error)\n  evaluator: \(expected)"
        case (.failure(let error), .success(let stored)): return "store: \(stored)\n  evaluator threw \(error)"
        }
    }

    /// The evaluator's answer: the unsaved objects the request covers, filtered, sorted with
    /// ties by the store's key, windowed.
    private func expected(_ request: FetchRequest) throws -> [String] {
        let schema = try #require(referenceContainer.viewContext.model.schema(for: request.entityName))
        let all = schema.rootName == "Person" ? reference.people : schema.rootName == "Tag" ? reference.tags : reference.items
        let evaluator = request.predicate.map(PredicateEvaluator.init)
        var matched: [ManagedObject] = []
        for object in all where request.includesSubentities ? schema.includes(object.entityName) : object.entityName == schema.name {
            if let evaluator, try !evaluator.evaluate(object) { continue }
            matched.append(object)
        }
        let walker = PredicateEvaluator(.alwaysTrue)
        // A search keeps the objects holding each of its words in a searched field, best
        // ranked first (`SearchText`).
        var ranks: [ObjectIdentifier: Int] = [:]
        if let text = request.searchText {
            let search = SearchText(text)
            let searched = (request.searchKeyPaths.isEmpty ? ["str", "alt"] : request.searchKeyPaths)
                .map { $0.split(separator: ".").map(String.init) }
            matched = try matched.filter { object in
                let fields = try searched.map { path -> String in
                    if case .string(let value) = try walker.walk(.object(object), path) { return CanonicalText.fold(value) }
                    return ""
                }
                guard !search.words.isEmpty, search.matches(fields) else { return false }
                ranks[ObjectIdentifier(object)] = search.rank(fields)
                return true
            }
        }
        let paths = request.sortDescriptors.map { $0.keyPath.split(separator: ".").map(String.init) }
        let decorated = try matched.map { object in
            (
                rank: ranks[ObjectIdentifier(object)] ?? 0, keys: try paths.map { try walker.walk(.object(object), $0) },
                key: keys[schema.rootName]?[object.serial] ?? 0, object: object
            )
        }
        let sorted = decorated.sorted { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            for (index, key) in request.sortDescriptors.enumerated() {
                let order = SortValueOrder.compare(a.keys[index], b.keys[index])
                if order != .orderedSame { return (order == .orderedAscending) == key.ascending }
            }
            return a.key < b.key
        }
        let start = min(max(request.fetchOffset, 0), sorted.count)
        let end = request.fetchLimit.map { min(sorted.count, start + max($0, 0)) } ?? sorted.count
        return sorted[start..<end].map { "\($0.object.entityName) \($0.object.serial)" }
    }
}
