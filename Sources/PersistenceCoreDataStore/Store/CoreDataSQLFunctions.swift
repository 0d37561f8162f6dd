import Foundation
import PersistenceModel
import PersistenceSQLite

/// The SQL functions and collations Core Data registers on each of its connections, which a
/// store's own schema may call: Core Data keeps derived attributes current with triggers
/// (`Z_DA_…`, made when it creates the store) that compute the value in SQL, e.g.
/// `NSCoreDataCanonical(NEW.ZTITLE)` for `canonical:(title)` or `NSCoreDataNow()` for
/// `now()`, and then tell Core Data's connection which object changed
/// (`NSCoreDataDATriggerUpdatedAffectedObjectValue(table, Z_ENT, Z_PK, property, value)`).
/// Without them every write to such a table fails with "no such function".
///
/// The names and argument counts are those of Core Data's own registration. The value
/// functions compute what Core Data's do (the canonical form is `CanonicalText`'s: case-,
/// diacritic- and width-insensitive, as Core Data's); the notifying functions return NULL
/// (a context here recomputes derived values itself). The collations compare as Core Data's
/// names say (no case; numerically and no case; locale-sensitive, as Foundation's localized
/// comparison; Finder-like, as localized standard comparison).
enum CoreDataSQLFunctions {
    /// Registers every function and collation on `database`.
    ///
    /// - Throws: `SQLiteError` when SQLite refuses a registration.
    static func register(on database: Database) throws {
        try database.createFunction("NSCoreDataNow", argumentCount: 0, deterministic: false) { _ in
            .real(CoreDataTimestamp.seconds(of: Date()))
        }
        try database.createFunction("NSCoreDataCanonical", argumentCount: 1) { arguments in
            mapText(arguments[0]) { CanonicalText.fold($0) }
        }
        try database.createFunction("NSCoreDataToLower", argumentCount: 1) { arguments in
            mapText(arguments[0]) { $0.lowercased() }
        }
        try database.createFunction("NSCoreDataToUpper", argumentCount: 1) { arguments in
            mapText(arguments[0]) { $0.uppercased() }
        }
        // `[c]` (1), `[d]` (2) and `[cd]` (3) folding for compiled fetches, exactly as in
        // memory (`PredicateEvaluator.fold`): this store's own, not Core Data's.
        try database.createFunction("predicate_fold", argumentCount: 2) { arguments in
            guard case .text(let text) = arguments[0], case .integer(let bits) = arguments[1] else { return arguments[0] }
            return .text(PredicateEvaluator.fold(text, PredicateNode.Options(rawValue: UInt8(truncatingIfNeeded: bits))))
        }
        // Whether a text's `[cd]` fold contains a needle folded already: a search's words and
        // `CONTAINS[cd]`, read from each row's bytes in place (false for NULL, as
        // `coalesce(instr(…) > 0, 0)`): this store's own, not Core Data's.
        try database.createPredicateFunction("predicate_contains_folded", argumentCount: 2) { arguments in
            arguments.withText(0) { text in
                guard let text else { return false }
                return arguments.withText(1) { needle in
                    guard let needle else { return false }
                    return CanonicalText.foldedText(utf8: text, contains: needle)
                }
            }
        }
        // A search's rank, `predicate_search_rank(phrase, field…)`: the phrase folded
        // already, each field folded here, ranked exactly as `SearchText.rank` ranks objects
        // in memory (and the SQLite store's `search_rank`), so that a search sorts and
        // windows in SQL: this store's own, not Core Data's. The phrase's ranker is kept
        // from row to row; NULL ranks as an empty field, a NULL phrase as 3.
        var ranker: SearchText.Ranker?
        try database.createIntegerFunction("predicate_search_rank", argumentCount: -1) { arguments in
            let current = arguments.withText(0) { phrase -> SearchText.Ranker? in
                guard let phrase else { return nil }
                if let ranker, ranker.ranks(for: phrase) { return ranker }
                ranker = SearchText.Ranker(foldedPhrase: phrase)
                return ranker
            }
            guard let current else { return 3 }
            var fields: [[UInt8]] = []
            fields.reserveCapacity(max(arguments.count - 1, 0))
            for index in stride(from: 1, to: arguments.count, by: 1) {
                fields.append(arguments.withText(index) { text in text.map { Array(CanonicalText.fold(utf8: $0).utf8) } ?? [] })
            }
            return Int64(current.rank(fields))
        }
        for name in [
            "NSCoreDataTriggerUpdateAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
            "NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerMergeableString",
        ] {
            try database.createFunction(name, argumentCount: 5, deterministic: false) { _ in .null }
        }
        let collations: [(String, String.CompareOptions, Bool)] = [
            ("NSCollateNoCase", [.caseInsensitive], false),
            ("NSCollateNumericallyNoCase", [.caseInsensitive, .numeric], false),
            ("NSCollateLocaleSensitive", [], true),
            ("NSCollateLocaleSensitiveNoCase", [.caseInsensitive], true),
            ("NSCollateFinderlike", [.caseInsensitive, .numeric, .widthInsensitive], true),
        ]
        for (name, options, localized) in collations {
            try database.createCollation(name) { left, right in
                let a = String(decoding: left, as: UTF8.self), b = String(decoding: right, as: UTF8.self)
                let order = a.compare(b, options: options, range: nil, locale: localized ? Locale.current : nil)
                // Equal under the options: by code point, so that the order stays total.
                if order == .orderedSame { return a == b ? 0 : (a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : 1) }
                return order == .orderedAscending ? -1 : 1
            }
        }
    }

    /// `transform` of a text value; any other value (NULL among them) as it is.
    private static func mapText(_ value: SQLiteValue, _ transform: (String) -> String) -> SQLiteValue {
        guard case .text(let text) = value else { return value }
        return .text(transform(text))
    }
}
