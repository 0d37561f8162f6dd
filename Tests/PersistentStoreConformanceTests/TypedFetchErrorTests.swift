import Foundation
import Persistence
import Testing

/// What a typed fetch refuses, and the descriptor's fields beyond the predicate: an
/// expression no store can run is an error naming it (never a silent evaluation in memory),
/// and `includePendingChanges`, the window, prefetching and streaming do what they say.
@Suite struct TypedFetchErrorTests {
    /// An in-memory container of the conformance model with the library saved in it.
    static func library() throws -> (PersistentContainer, Library.Objects) {
        let container = try PersistentContainer(
            model: ConformanceModel.make(), storeURL: nil,
            classes: typedLibraryClasses.merging(["Sample": TypedSample.self]) { $1 })
        let objects = try Library.insert(into: container.viewContext)
        try container.viewContext.save()
        return (container, objects)
    }

    /// The error `descriptor` throws, which must be a translation error.
    static func refusal<T: ManagedObject>(_ descriptor: FetchDescriptor<T>, in context: ManagedObjectContext)
        throws -> TypedPredicateTranslationError
    {
        try #require(throws: TypedPredicateTranslationError.self) { try context.fetch(descriptor) }
    }

    @Test func anExpressionNoStoreRunsIsAnErrorNamingIt() throws {
        let (container, _) = try Self.library()
        let context = container.viewContext
        let product = try Self.refusal(FetchDescriptor<TypedBook>(predicate: #Predicate { $0.n * $0.n > 4 }), in: context)
        #expect(product.expression == "PredicateExpressions.Arithmetic")
        #expect(product.description.hasPrefix("Can't translate a typed fetch of TypedBook: PredicateExpressions.Arithmetic: "))
        let zero = try Self.refusal(FetchDescriptor<TypedBook>(predicate: #Predicate { $0.n * 0 > 4 }), in: context)
        #expect(zero.reason.contains("multiplied by zero"))
        let division = try Self.refusal(FetchDescriptor<TypedBook>(predicate: #Predicate { $0.n / 2 > 4 }), in: context)
        #expect(division.expression == "PredicateExpressions.IntDivision")
        let remainder = try Self.refusal(FetchDescriptor<TypedBook>(predicate: #Predicate { $0.n % 2 == 0 }), in: context)
        #expect(remainder.expression == "PredicateExpressions.IntRemainder")
        let twoKeyPaths = try Self.refusal(
            FetchDescriptor<TypedBook>(predicate: #Predicate { $0.n + $0.n > 4 }), in: context)
        #expect(twoKeyPaths.expression == "PredicateExpressions.Arithmetic")
        let largest = Int64.max
        let overflow = try Self.refusal(
            FetchDescriptor<TypedBook>(predicate: #Predicate { $0.n - 5 > largest }), in: context)
        #expect(overflow.reason.contains("overflows Int64"))
    }

    @Test func toManyConditionsThatNeedASubqueryAreErrors() throws {
        let (container, _) = try Self.library()
        let context = container.viewContext
        let both = try Self.refusal(
            FetchDescriptor<TypedAuthor>(predicate: #Predicate { $0.books.contains(where: { $0.n > 3 && $0.n < 9 }) }),
            in: context)
        #expect(both.expression == "PredicateExpressions.SequenceContainsWhere")
        #expect(both.reason.contains("subquery"))
        let either = try Self.refusal(
            FetchDescriptor<TypedAuthor>(predicate: #Predicate { $0.books.allSatisfy { $0.n < 3 || $0.n > 9 } }),
            in: context)
        #expect(either.expression == "PredicateExpressions.SequenceAllSatisfy")
        let many = try Self.refusal(
            FetchDescriptor<TypedAuthor>(predicate: #Predicate { $0.books.filter { $0.n < 9 }.count > 2 }),
            in: context)
        #expect(many.reason.contains("how many"))
    }

    @Test func keyPathsThatNameNoPropertyAreErrors() throws {
        let (container, _) = try Self.library()
        let context = container.viewContext
        let wholeRelationship = try Self.refusal(
            FetchDescriptor<TypedAuthor>(predicate: #Predicate { $0.books.first?.n == 3 }), in: context)
        #expect(wholeRelationship.reason.contains("a key path from Set<TypedBook> to Optional<TypedBook>: of a to-many"))
        var throughRelationship = FetchDescriptor<TypedBook>(sortBy: [SortDescriptor(\.author?.name)])
        let sort = try Self.refusal(throughRelationship, in: context)
        #expect(sort.expression == "a key path from TypedBook to Optional<String>")
        #expect(sort.reason.contains("through a relationship"))
        throughRelationship.sortBy = []
        throughRelationship.relationshipKeyPathsForPrefetching = [\TypedBook.title]
        #expect(throws: FetchError.self) { try context.fetch(throughRelationship) }
    }

    @Test func anInMemoryEvaluationRunsOnlyWhenAskedFor() throws {
        let (container, _) = try Self.library()
        let context = container.viewContext
        var descriptor = FetchDescriptor<TypedBook>(
            predicate: #Predicate { $0.n % 3 == 0 }, sortBy: [SortDescriptor(\.n, order: .reverse)])
        _ = try Self.refusal(descriptor, in: context)
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 4
        let evaluated = try context.fetch(descriptor, evaluatingPredicateInMemory: true)
        #expect(evaluated.map(\.n) == [36, 33, 30, 27])
        descriptor.predicate = #Predicate { $0.n < 10 }
        #expect(
            try context.fetch(descriptor, evaluatingPredicateInMemory: true).map(\.n)
                == context.fetch(descriptor).map(\.n))
        descriptor.fetchLimit = -1
        #expect(throws: FetchError.self) { try context.fetch(descriptor, evaluatingPredicateInMemory: true) }
    }

    @Test func aNegativeWindowIsAnError() throws {
        let (container, _) = try Self.library()
        var descriptor = FetchDescriptor<TypedBook>()
        descriptor.fetchLimit = -1
        #expect(throws: FetchError.self) { try container.viewContext.fetch(descriptor) }
        descriptor.fetchLimit = nil
        descriptor.fetchOffset = -2
        #expect(throws: FetchError.self) { try container.viewContext.fetchCount(descriptor) }
    }

    @Test func pendingChangesCountUnlessTheDescriptorSaysNot() throws {
        let (container, _) = try Self.library()
        let context = container.viewContext
        let book = try context.insertObject(forEntityName: "Book")
        try book.setValue(Int64(1000), forKey: "n")
        var descriptor = FetchDescriptor<TypedBook>(predicate: #Predicate { $0.n >= 1000 })
        #expect(try context.fetch(descriptor).map(\.n) == [1000])
        #expect(try context.fetchCount(descriptor) == 1)
        descriptor.includePendingChanges = false
        #expect(try context.fetch(descriptor).isEmpty)
        #expect(try context.fetchCount(descriptor) == 0)
        #expect(try context.fetchIdentifiers(descriptor).isEmpty)
        try context.save()
        #expect(try context.fetch(descriptor).map(\.n) == [1000])
    }

    @Test func prefetchingAndStreamingFollowTheDescriptor() throws {
        let (container, _) = try Self.library()
        let context = container.viewContext
        context.reset()
        var descriptor = FetchDescriptor<TypedBook>(
            predicate: #Predicate { $0.author != nil }, sortBy: [SortDescriptor(\.n, order: .reverse)])
        descriptor.relationshipKeyPathsForPrefetching = [\.author, \.tags]
        descriptor.propertiesToFetch = [\.title, \.n]
        let request = try context.fetchRequest(for: descriptor)
        #expect(request.relationshipKeyPathsForPrefetching == ["author", "tags"])
        #expect(request.propertiesToFetch == ["title", "n"])
        #expect(request.predicate?.description == "author != nil")
        let books = try context.fetch(descriptor)
        #expect(books.first?.author?.isFault == false)
        var firstThree: [Int64] = []
        try context.forEach(descriptor) { book in
            firstThree.append(book.n)
            return firstThree.count < 3
        }
        #expect(firstThree == Array(books.prefix(3).map(\.n)))
        var all: [Int64] = []
        try context.enumerate(descriptor) { all.append($0.n) }
        #expect(all == books.map(\.n))
    }
}
