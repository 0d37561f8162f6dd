import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// Typed fetches (`FetchDescriptor` with `#Predicate` and `SortDescriptor`) on every store:
/// each predicate selects the objects its predicate string selects, in the same order, and
/// exactly those for which Foundation's `Predicate.evaluate` is true; each sort orders as
/// its `SortKey`s do.
@Suite struct TypedFetchConformanceTests {
    /// One typed fetch beside its predicate string and sort keys.
    struct Case {
        var name: String
        var check: (ManagedObjectContext) throws -> Void
    }

    /// Checks that `descriptor` fetches in `context` what `format` and `sort` fetch, what
    /// `Predicate.evaluate` selects, and that its count and identifiers agree.
    static func check<T: ManagedObject>(
        _ name: String, _ descriptor: FetchDescriptor<T>, _ format: String?, _ arguments: [Any?] = [],
        _ sort: [SortKey] = [], entity: String, in context: ManagedObjectContext
    ) throws {
        let typed = try context.fetch(descriptor)
        var request = FetchRequest(entityName: entity, predicate: try format.map { try FetchPredicate(format: $0, argumentArray: arguments) })
        request.sortDescriptors = sort
        request.fetchLimit = descriptor.fetchLimit
        request.fetchOffset = descriptor.fetchOffset ?? 0
        let expected = try context.fetch(request)
        #expect(typed.map(\.serial) == expected.map(\.serial), "\(name): typed vs \(format ?? "every object")")
        #expect(try context.fetchCount(descriptor) == expected.count, "\(name): fetchCount")
        #expect(try context.fetchIdentifiers(descriptor) == expected.map(\.objectID), "\(name): fetchIdentifiers")
        var streamed: [Int64] = []
        try context.forEach(descriptor) { object in
            streamed.append(object.serial)
            return true
        }
        #expect(streamed == expected.map(\.serial), "\(name): forEach")
        if let predicate = descriptor.predicate, descriptor.fetchLimit == nil, descriptor.fetchOffset == nil {
            let all = try context.fetch(FetchDescriptor<T>())
            let evaluated = try all.filter { try predicate.evaluate($0) }.map(\.serial)
            #expect(Set(typed.map(\.serial)) == Set(evaluated), "\(name): typed vs Predicate.evaluate")
        }
    }

    /// A context on the store under test whose objects are the typed classes.
    static func typedContext(_ library: StoredLibrary) -> ManagedObjectContext {
        ManagedObjectContext(
            coordinator: PersistentStoreCoordinator(store: library.store),
            classes: typedLibraryClasses.merging(["Sample": TypedSample.self]) { $1 })
    }

    @Test(arguments: StoreFactories.all)
    func typedPredicatesSelectWhatTheirStringsAndEvaluateSelect(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        try TypedSample.insert(into: library.subject)
        let context = Self.typedContext(library)
        let cases = Self.bookCases() + Self.relationshipCases() + Self.sampleCases() + Self.sortCases()
        #expect(cases.count >= 60)
        for testCase in cases {
            do {
                try testCase.check(context)
            } catch {
                Issue.record("\(testCase.name): \(error)")
            }
        }
    }
}

// MARK: - The cases

extension TypedFetchConformanceTests {
    static func book(
        _ name: String, _ predicate: Predicate<TypedBook>, _ format: String, sort: [SortKey] = [],
        by sortBy: [SortDescriptor<TypedBook>] = []
    ) -> Case {
        Case(name: name) { context in
            try check(name, FetchDescriptor(predicate: predicate, sortBy: sortBy), format, [], sort, entity: "Book", in: context)
        }
    }

    static func author(_ name: String, _ predicate: Predicate<TypedAuthor>, _ format: String) -> Case {
        Case(name: name) { context in
            try check(name, FetchDescriptor(predicate: predicate), format, entity: "Author", in: context)
        }
    }

    static func tag(_ name: String, _ predicate: Predicate<TypedTag>, _ format: String) -> Case {
        Case(name: name) { context in
            try check(name, FetchDescriptor(predicate: predicate), format, entity: "Tag", in: context)
        }
    }

    static func sample(
        _ name: String, _ predicate: Predicate<TypedSample>?, _ format: String?, _ arguments: Any?...,
        sort: [SortKey] = [], by sortBy: [SortDescriptor<TypedSample>] = []
    ) -> Case {
        Case(name: name) { context in
            try check(
                name, FetchDescriptor(predicate: predicate, sortBy: sortBy), format, arguments, sort, entity: "Sample",
                in: context)
        }
    }

    static func bookCases() -> [Case] {
        let limit: Int64 = 12
        let flag = true
        let half = Decimal(string: "10.5") ?? 0
        let titles: [String?] = ["Light", "Solaris"]
        let serials: [Int64] = [1, 2, 3, 30]
        return [
            book("less than", #Predicate { $0.n < 10 }, "n < 10"),
            book("equal", #Predicate { $0.n == 7 }, "n == 7"),
            book("not equal", #Predicate { $0.n != 7 }, "n != 7"),
            book("at least", #Predicate { $0.n >= 30 }, "n >= 30"),
            book("or", #Predicate { $0.n <= 3 || $0.n > 37 }, "n <= 3 OR n > 37"),
            book("and", #Predicate { $0.n > 5 && $0.n < 15 }, "n > 5 AND n < 15"),
            book("not", #Predicate { !($0.n < 20) }, "NOT n < 20"),
            book("constant on the left", #Predicate { 10 < $0.n }, "n > 10"),
            book("captured value", #Predicate { $0.n < limit }, "n < 12"),
            book("constant arithmetic", #Predicate { $0.n > limit * 2 }, "n > 24"),
            book("key path plus", #Predicate { $0.n + 5 > 30 }, "n > 25"),
            book("key path minus", #Predicate { $0.n - 5 <= 10 }, "n <= 15"),
            book("constant minus key path", #Predicate { 50 - $0.n < 20 }, "n > 30"),
            book("negated key path", #Predicate { -$0.n > -4 }, "n < 4"),
            book("key path times", #Predicate { $0.n * 2 > 7 }, "n > 3.5"),
            book("key path times, at most", #Predicate { 3 * $0.n <= 20 }, "n <= 6"),
            book("key path times a negative", #Predicate { $0.n * -2 < -30 }, "n > 15"),
            book("key path times, equal", #Predicate { $0.n * 2 == 14 }, "n == 7"),
            book("key path times, never equal", #Predicate { $0.n * 2 == 15 }, "FALSEPREDICATE"),
            book("optional double times", #Predicate { $0.rating.flatMap { $0 * 2 } == 9 }, "rating == 4.5"),
            book("true constant", #Predicate { _ in true }, "TRUEPREDICATE"),
            book("conditional on a constant", #Predicate { flag ? $0.n < 3 : $0.n > 3 }, "n < 3"),
            book(
                "conditional on the object",
                #Predicate { $0.n < 20 ? $0.title == "Light" : $0.year == 1961 },
                "(n < 20 AND title == 'Light') OR (NOT n < 20 AND year == 1961)"),
            book("captured list", #Predicate { serials.contains($0.n) }, "n IN {1, 2, 3, 30}"),
            book("closed range", #Predicate { (5...9).contains($0.n) }, "n BETWEEN {5, 9}"),
            book("half-open range", #Predicate { (5..<9).contains($0.n) }, "n >= 5 AND n < 9"),
            book("string equal", #Predicate { $0.title == "Solaris" }, "title == 'Solaris'"),
            book("string equal, case kept", #Predicate { $0.title == "école" }, "title == 'école'"),
            book("string not equal keeps nil", #Predicate { $0.title != "Solaris" }, "title != 'Solaris'"),
            book("string nil", #Predicate { $0.title == nil }, "title == nil"),
            book("string not nil", #Predicate { $0.title != nil }, "title != nil"),
            book("optional contains", #Predicate { $0.title?.contains("ing") == true }, "title CONTAINS 'ing'"),
            book(
                "coalesced contains", #Predicate { ($0.title ?? "").contains("ing") }, "title CONTAINS 'ing'"),
            book(
                "optional starts(with:)", #Predicate { $0.title?.starts(with: "Sol") == true },
                "title BEGINSWITH 'Sol'"),
            book("string list", #Predicate { titles.contains($0.title) }, "title IN {'Light', 'Solaris'}"),
            book(
                "string and number", #Predicate { $0.title?.contains("o") == true && ($0.year ?? 0) > 1960 },
                "title CONTAINS 'o' AND year > 1960"),
            book("coalesced integer", #Predicate { ($0.year ?? 0) >= 1961 }, "year >= 1961"),
            book(
                "coalesced integer counting nil", #Predicate { ($0.year ?? 2000) > 1990 },
                "year > 1990 OR year == nil"),
            book("integer nil", #Predicate { $0.year == nil }, "year == nil"),
            book("optional integer not equal", #Predicate { $0.year != 1961 }, "year != 1961"),
            book("decimal greater", #Predicate { ($0.price ?? 0) > half }, "price > 10.5"),
            book("decimal equal across scales", #Predicate { $0.price == half }, "price == 10.5"),
            book("decimal negative", #Predicate { ($0.price ?? 0) < 0 }, "price < 0"),
            book("double greater", #Predicate { ($0.rating ?? 0) > 4 }, "rating > 4"),
            book("double equal", #Predicate { $0.rating == 4.5 }, "rating == 4.5"),
            book(
                "double coalesced counting nil", #Predicate { ($0.rating ?? 0) <= 0 },
                "rating <= 0 OR rating == nil"),
        ]
    }

    static func relationshipCases() -> [Case] {
        let lem = "Stanisław Lem"
        return [
            book("to-one key path", #Predicate { $0.author?.name == lem }, "author.name == 'Stanisław Lem'"),
            book("to-one nil", #Predicate { $0.author == nil }, "author == nil"),
            book("to-one not nil", #Predicate { $0.author != nil }, "author != nil"),
            book(
                "to-one chain", #Predicate { $0.author?.name?.starts(with: "Ana") == true },
                "author.name BEGINSWITH 'Ana'"),
            book("flatMap", #Predicate { $0.author.flatMap { $0.n } == 3 }, "author.n == 3"),
            book(
                "forced unwrap", #Predicate { $0.author != nil && $0.author!.n < 3 },
                "author != nil AND author.n < 3"),
            book(
                "contains(where:)", #Predicate { $0.tags.contains(where: { $0.name == "sf" }) },
                "ANY tags.name == 'sf'"),
            book(
                "not contains(where:)", #Predicate { !$0.tags.contains(where: { $0.name == "sf" }) },
                "NOT (ANY tags.name == 'sf')"),
            book(
                "contains(where:) with or",
                #Predicate { $0.tags.contains(where: { $0.name == "sf" || $0.name == "poetry" }) },
                "ANY tags.name == 'sf' OR ANY tags.name == 'poetry'"),
            book(
                "contains(where:) of a negation", #Predicate { $0.tags.contains(where: { !($0.n < 1) }) },
                "ANY tags.n >= 1"),
            book("allSatisfy", #Predicate { $0.tags.allSatisfy { $0.name != "classic" } }, "ALL tags.name != 'classic'"),
            book("allSatisfy with and", #Predicate { $0.tags.allSatisfy { $0.n < 2 && $0.n >= 0 } }, "ALL tags.n < 2"),
            book(
                "ordered to-many contains(where:)",
                #Predicate { $0.shelves.contains(where: { $0.name == "favourites" }) },
                "ANY shelves.name == 'favourites'"),
            book("ordered to-many isEmpty", #Predicate { $0.shelves.isEmpty }, "shelves.@count == 0"),
            book("to-many count", #Predicate { $0.shelves.count >= 1 }, "shelves.@count >= 1"),
            tag("to-many isEmpty", #Predicate { $0.books.isEmpty }, "books.@count == 0"),
            tag("to-many count compared", #Predicate { $0.books.count > 13 }, "books.@count > 13"),
            author("count at least", #Predicate { $0.books.count >= 5 }, "books.@count >= 5"),
            author(
                "filter count above zero", #Predicate { $0.books.filter { $0.n < 5 }.count > 0 },
                "ANY books.n < 5"),
            author(
                "filter isEmpty", #Predicate { $0.books.filter { $0.n < 5 }.isEmpty },
                "NOT (ANY books.n < 5)"),
            author(
                "filter count zero", #Predicate { $0.books.filter { $0.year == 1961 }.count == 0 },
                "NOT (ANY books.year == 1961)"),
            author(
                "contains(where:) on a string", #Predicate { $0.books.contains(where: { $0.title == "Solaris" }) },
                "ANY books.title == 'Solaris'"),
            author("allSatisfy not nil", #Predicate { $0.books.allSatisfy { $0.year != nil } }, "ALL books.year != nil"),
            author("author name", #Predicate { $0.name?.contains("Light") == true }, "name CONTAINS 'Light'"),
        ]
    }

    static func sampleCases() -> [Case] {
        let cutoff = TypedSample.sampleDate(day: 3)
        let one = TypedSample.sampleUUID(1)
        let past = Date.distantPast
        let minusOne: Int16 = -1
        return [
            sample("date nil", #Predicate { $0.when == nil }, "when == nil"),
            sample("date after", #Predicate { ($0.when ?? past) > cutoff }, "when > %@", cutoff),
            sample("date on", #Predicate { $0.when == cutoff }, "when == %@", cutoff),
            sample("date before or nil", #Predicate { ($0.when ?? past) < cutoff }, "when < %@ OR when == nil", cutoff),
            sample("bool true", #Predicate { $0.flag == true }, "flag == YES"),
            sample("bool not true", #Predicate { $0.flag != true }, "flag != YES"),
            sample("bool coalesced", #Predicate { $0.flag ?? false }, "flag == YES"),
            sample("uuid", #Predicate { $0.id == one }, "id == %@", one),
            sample("int16", #Predicate { $0.i16 == minusOne }, "i16 == -1"),
            sample("int32 range", #Predicate { ($0.i32 ?? 0) >= 3000 }, "i32 >= 3000"),
            sample("double negative", #Predicate { ($0.dbl ?? 0) < 0 }, "dbl < 0"),
            sample("float", #Predicate { ($0.flt ?? 0) > 1 }, "flt > 1"),
            sample("decimal", #Predicate { ($0.dec ?? 0) >= 1.5 }, "dec >= 1.5"),
            sample("string ordering", #Predicate { ($0.str ?? "") < "b" }, "str < 'b' OR str == nil"),
        ]
    }

    static func sortCases() -> [Case] {
        [
            book("by title", #Predicate { _ in true }, "TRUEPREDICATE", sort: [SortKey("title"), SortKey("n")], by: [SortDescriptor(\.title), SortDescriptor(\.n)]),
            book(
                "by title lexical, reversed", #Predicate { $0.n < 30 }, "n < 30",
                sort: [SortKey("title", ascending: false), SortKey("n")],
                by: [SortDescriptor(\.title, comparator: .lexical, order: .reverse), SortDescriptor(\.n)]),
            book("by year", #Predicate { $0.n >= 0 }, "n >= 0", sort: [SortKey("year"), SortKey("n")], by: [SortDescriptor(\.year), SortDescriptor(\.n)]),
            book(
                "by price descending", #Predicate { $0.author != nil }, "author != nil",
                sort: [SortKey("price", ascending: false), SortKey("n")],
                by: [SortDescriptor(\.price, order: .reverse), SortDescriptor(\.n)]),
            book("by rating", #Predicate { _ in true }, "TRUEPREDICATE", sort: [SortKey("rating"), SortKey("n")], by: [SortDescriptor(\.rating), SortDescriptor(\.n)]),
            book("by serial descending", #Predicate { _ in true }, "TRUEPREDICATE", sort: [SortKey("n", ascending: false)], by: [SortDescriptor(\.n, order: .reverse)]),
            sample("by date", nil, nil, sort: [SortKey("when"), SortKey("n")], by: [SortDescriptor(\.when), SortDescriptor(\.n)]),
            sample("by decimal", nil, nil, sort: [SortKey("dec"), SortKey("n")], by: [SortDescriptor(\.dec), SortDescriptor(\.n)]),
            sample("by string", nil, nil, sort: [SortKey("str"), SortKey("n", ascending: false)], by: [SortDescriptor(\.str), SortDescriptor(\.n, order: .reverse)]),
            sample("by int16", nil, nil, sort: [SortKey("i16"), SortKey("n")], by: [SortDescriptor(\.i16), SortDescriptor(\.n)]),
            Case(name: "a window") { context in
                var descriptor = FetchDescriptor<TypedBook>(
                    predicate: #Predicate { $0.title != nil }, sortBy: [SortDescriptor(\.title), SortDescriptor(\.n)])
                descriptor.fetchLimit = 5
                descriptor.fetchOffset = 3
                try check("a window", descriptor, "title != nil", [], [SortKey("title"), SortKey("n")], entity: "Book", in: context)
            },
            Case(name: "the sub-entity") { context in
                let descriptor = FetchDescriptor<TypedEbook>(
                    predicate: #Predicate { ($0.megabytes ?? 0) > 1 }, sortBy: [SortDescriptor(\.megabytes), SortDescriptor(\.n)])
                try check("the sub-entity", descriptor, "megabytes > 1", [], [SortKey("megabytes"), SortKey("n")], entity: "Ebook", in: context)
            },
        ]
    }
}
