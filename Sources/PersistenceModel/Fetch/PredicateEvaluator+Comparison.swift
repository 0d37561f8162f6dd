import Foundation

// Comparing two values: the operator semantics documented on `PredicateEvaluator`.

extension PredicateEvaluator {
    /// Applies the site's operator to two evaluated values.
    func compare(_ left: PredicateValue, _ right: PredicateValue, _ site: Site) throws -> Bool {
        if case .collection = left, site.op != .contains {
            let bothCollections: Bool
            if case .collection = right { bothCollections = true } else { bothCollections = false }
            guard bothCollections, site.op == .equalTo || site.op == .notEqualTo else {
                throw site.error(
                    "\(site.comparison.left) is a collection: use ANY, ALL or NONE to compare "
                        + "its elements, or @count for its size")
            }
        }
        switch site.op {
        case .equalTo: return try equal(left, right, site)
        case .notEqualTo: return try !equal(left, right, site)
        case .lessThan: return try order(left, right, site) == .orderedAscending
        case .lessThanOrEqualTo:
            return try [.orderedAscending, .orderedSame].contains(order(left, right, site))
        case .greaterThan: return try order(left, right, site) == .orderedDescending
        case .greaterThanOrEqualTo:
            return try [.orderedDescending, .orderedSame].contains(order(left, right, site))
        case .between:
            guard case .collection(let bounds) = right, bounds.count == 2 else {
                throw site.error(
                    "BETWEEN needs two values, but \(site.comparison.right) is "
                        + right.typeDescription)
            }
            let low = try order(left, bounds[0], site)
            let high = try order(left, bounds[1], site)
            return (low == .orderedDescending || low == .orderedSame)
                && (high == .orderedAscending || high == .orderedSame)
        case .in:
            switch (left, right) {
            case (_, .collection(let items)):
                return try items.contains { try equal(left, $0, site) }
            case (.null, .string), (_, .null): return false
            case (.string(let needle), .string(let haystack)):
                return fold(haystack, site.options).contains(utf8: fold(needle, site.options))
            default: throw site.mismatch(left, right)
            }
        case .contains:
            switch (left, right) {
            case (.collection(let items), _):
                return try items.contains { try equal($0, right, site) }
            case (.null, _), (.string, .null): return false
            case (.string(let haystack), .string(let needle)):
                return fold(haystack, site.options).contains(utf8: fold(needle, site.options))
            default: throw site.mismatch(left, right)
            }
        case .beginsWith, .endsWith, .like, .matches:
            switch (left, right) {
            case (.null, _), (_, .null): return false
            case (.string(let text), .string(let pattern)):
                return try match(text, pattern, site)
            default: throw site.mismatch(left, right)
            }
        }
    }

    /// `==` between two values: nil equals only nil; mismatched types throw.
    func equal(_ left: PredicateValue, _ right: PredicateValue, _ site: Site) throws -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let l), .string(let r)):
            return fold(l, site.options).utf8.elementsEqual(fold(r, site.options).utf8)
        case (.date(let l), .date(let r)): return l == r
        case (.date(let l), .string(let r)): return try l == typedDate(r, site)
        case (.string(let l), .date(let r)): return try typedDate(l, site) == r
        case (.uuid(let l), .uuid(let r)): return l == r
        case (.url(let l), .url(let r)): return l.absoluteString == r.absoluteString
        case (.data(let l), .data(let r)): return l == r
        case (.object(let l), .object(let r)):
            guard type(of: l) is AnyClass, type(of: r) is AnyClass else {
                throw site.error("objects can be compared only when they are class instances")
            }
            return (l as AnyObject) === (r as AnyObject)
        case (.collection(let l), .collection(let r)):
            guard l.count == r.count else { return false }
            for (a, b) in zip(l, r) where try !equal(a, b, site) { return false }
            return true
        default:
            if let l = Number(left), let r = Number(right) {
                return Number.compare(l, r) == .orderedSame
            }
            throw site.mismatch(left, right)
        }
    }

    /// The order of two non-nil values of comparable types, or `nil` when unordered (NaN
    /// or a nil side).
    func order(_ left: PredicateValue, _ right: PredicateValue, _ site: Site) throws
        -> ComparisonResult?
    {
        switch (left, right) {
        case (.null, _), (_, .null): return nil
        case (.string(let l), .string(let r)):
            return Self.compareBytes(fold(l, site.options).utf8, fold(r, site.options).utf8)
        case (.date(let l), .date(let r)): return Self.compare(l, r)
        case (.date(let l), .string(let r)): return Self.compare(l, try typedDate(r, site))
        case (.string(let l), .date(let r)): return Self.compare(try typedDate(l, site), r)
        case (.uuid(let l), .uuid(let r)): return Self.compare(l.uuidString, r.uuidString)
        case (.url(let l), .url(let r)):
            return Self.compareBytes(l.absoluteString.utf8, r.absoluteString.utf8)
        case (.data(let l), .data(let r)): return Self.compareBytes(l, r)
        default:
            if let l = Number(left), let r = Number(right) { return Number.compare(l, r) }
            throw site.mismatch(left, right)
        }
    }

    /// The date that `text` names where a predicate compares it with a date: beyond Core
    /// Data's own syntax, which compares a date only with a date (`CAST(…, "NSDate")` or an
    /// argument), a string in ISO 8601 form (`"2020-01-01"`, `"2020-01"`, `"2020"`, or
    /// `"2020-01-01T12:00:00+02:00"`) compares as the instant it starts, in UTC, as the
    /// SQL compiler does.
    ///
    /// - Throws: `FetchPredicateError` (`.invalidValue`) naming the comparison and the text.
    func typedDate(_ text: String, _ site: Site) throws -> Date {
        do throws(DateTextError) { return try Self.typedDate(text) } catch {
            throw site.error(
                "\(QuotedText.excerpt("\(site.comparison)")): \(error.description)", kind: .invalidValue)
        }
    }

    /// The instant a date typed as text starts, in UTC (see `typedDate(_:_:)`); shared with
    /// the SQL compiler so that both read the same text as the same date.
    package static func typedDate(_ text: String) throws(DateTextError) -> Date {
        try DateText.parseTypedDate(text, timeZone: .gmt).start
    }

    package static func compare<T: Comparable>(_ l: T, _ r: T) -> ComparisonResult {
        l < r ? .orderedAscending : (l == r ? .orderedSame : .orderedDescending)
    }

    /// Lexicographic order of two byte sequences, shorter prefix first (memcmp order).
    package static func compareBytes<L: Sequence<UInt8>, R: Sequence<UInt8>>(_ l: L, _ r: R)
        -> ComparisonResult
    {
        var li = l.makeIterator()
        var ri = r.makeIterator()
        while true {
            switch (li.next(), ri.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case (let a?, let b?) where a != b:
                return a < b ? .orderedAscending : .orderedDescending
            default: continue
            }
        }
    }

    // MARK: Collection operators

    /// `@sum`, `@avg`, `@min` or `@max` of the non-nil `values`.
    func aggregate(
        _ function: PredicateNode.CollectionFunction, _ values: [PredicateValue],
        _ operand: PredicateNode.Operand
    ) throws -> PredicateValue {
        func notNumeric(_ value: PredicateValue) -> FetchPredicateError {
            FetchPredicateError(
                kind: .typeMismatch, format: "",
                message:
                    "\(function.rawValue) needs numbers, but \(operand) has "
                    + value.typeDescription
            )
        }
        switch function {
        case .count: return .integer(Int64(values.count))
        case .sum, .avg:
            var numbers: [Number] = []
            for value in values {
                guard let number = Number(value) else { throw notNumeric(value) }
                numbers.append(number)
            }
            if function == .avg && numbers.isEmpty { return .null }
            let sum = Number.sum(numbers)
            if case .decimal(let total) = sum, total.isNaN {
                // As SQL's decimal_sum: Decimal's NaN on overflow is never passed on.
                throw FetchPredicateError(
                    kind: .invalidValue, format: "",
                    message: "\(operand) overflows: the sum of decimals is beyond Decimal's range (about 3.4e165)")
            }
            guard function == .avg else { return sum.value }
            switch sum {
            case .decimal(let total): return .decimal(total / Decimal(numbers.count))
            default: return .double(sum.doubleValue / Double(numbers.count))
            }
        case .min, .max:
            // NaN is unordered: it is no collection's least or greatest value, wherever it
            // stands (as SQL's min and max, which skip it); only NaNs have neither.
            let values = values.filter { if case .double(let d) = $0 { !d.isNaN } else { true } }
            guard var best = values.first else { return .null }
            let site = Site(
                comparison: .init(
                    .aggregate([]), function == .min ? .lessThan : .greaterThan, operand))
            for value in values.dropFirst() {
                let order = try self.order(value, best, site)
                if order == (function == .min ? .orderedAscending : .orderedDescending) {
                    best = value
                }
            }
            return best
        }
    }
}

/// A numeric value for comparisons and sums; booleans count as 0 and 1.
package enum Number {
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)

    package init?(_ value: PredicateValue) {
        switch value {
        case .bool(let b): self = .integer(b ? 1 : 0)
        case .integer(let i): self = .integer(i)
        case .double(let d): self = .double(d)
        case .decimal(let d): self = .decimal(d)
        default: return nil
        }
    }

    var value: PredicateValue {
        switch self {
        case .integer(let i): .integer(i)
        case .double(let d): .double(d)
        case .decimal(let d): .decimal(d)
        }
    }

    /// The value as a `Double`; a decimal converts through its exact digits so that the
    /// result is the correctly rounded double (Foundation's `doubleValue` is not).
    package var doubleValue: Double {
        switch self {
        case .integer(let i): Double(i)
        case .double(let d): d
        case .decimal(let d): d.isNaN ? .nan : (Double(d.description) ?? .nan)
        }
    }

    package var decimalValue: Decimal {
        switch self {
        case .integer(let i): Decimal(i)
        case .double(let d): Decimal(d)
        case .decimal(let d): d
        }
    }

    /// Compares by value, exactly: as SQLite compares the stored values, so that the SQL
    /// compiler and the evaluator agree. `nil` when unordered (NaN).
    ///
    /// - Two integers, two doubles, two decimals: as themselves.
    /// - An integer and a double: exactly, as SQLite compares INTEGER with REAL (not
    ///   through `Double(integer)`, which rounds past 2⁵³).
    /// - A decimal and a double: the double as its shortest round-trip decimal (`0.1` is
    ///   0.1), compared digit by digit (see `DecimalText.compare(_:_:)`).
    /// - A decimal and an integer: as decimals.
    package static func compare(_ l: Number, _ r: Number) -> ComparisonResult? {
        switch (l, r) {
        case (.integer(let a), .integer(let b)): return PredicateEvaluator.compare(a, b)
        case (.decimal(let a), .double(let b)): return DecimalText.compare(a, b)
        case (.double(let a), .decimal(let b)): return DecimalText.compare(b, a).map(\.reversed)
        case (.integer(let a), .double(let b)): return exactCompare(a, b)
        case (.double(let a), .integer(let b)): return exactCompare(b, a).map(\.reversed)
        case (.double, _), (_, .double):
            let a = l.doubleValue, b = r.doubleValue
            if a.isNaN || b.isNaN { return nil }
            return PredicateEvaluator.compare(a, b)
        default:
            let a = l.decimalValue, b = r.decimalValue
            if a.isNaN || b.isNaN { return nil }
            return PredicateEvaluator.compare(a, b)
        }
    }

    /// An integer against a double, exactly (SQLite's `sqlite3IntFloatCompare`); nil for NaN.
    static func exactCompare(_ integer: Int64, _ double: Double) -> ComparisonResult? {
        if double.isNaN { return nil }
        // 2⁶³ is exact as a Double; every Int64 is below it and at or above -2⁶³.
        if double >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if double < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = double.rounded(.towardZero)
        let order = PredicateEvaluator.compare(integer, Int64(whole))
        if order != .orderedSame { return order }
        return PredicateEvaluator.compare(Double(0), double - whole)
    }

    /// The sum: a double if any term is, else a decimal if any term is (or the integers
    /// overflow), else an integer. The empty sum is the integer 0.
    static func sum(_ numbers: [Number]) -> Number {
        if numbers.contains(where: { if case .double = $0 { true } else { false } }) {
            return .double(numbers.reduce(0) { $0 + $1.doubleValue })
        }
        var total: Int64 = 0
        var exact = !numbers.contains(where: { if case .decimal = $0 { true } else { false } })
        if exact {
            for case .integer(let i) in numbers {
                let (next, overflow) = total.addingReportingOverflow(i)
                if overflow { exact = false; break }
                total = next
            }
        }
        if exact { return .integer(total) }
        // The arithmetic of SQL's decimal_sum; NaN on overflow, which aggregate() refuses.
        var sum = DecimalSum()
        for number in numbers {
            do { try sum.add(number.decimalValue) } catch { return .decimal(.nan) }
        }
        return .decimal(sum.total)
    }
}

extension ComparisonResult {
    /// The order of the same two values swapped.
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}
