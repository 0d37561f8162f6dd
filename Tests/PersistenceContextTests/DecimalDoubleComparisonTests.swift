import Foundation
import Testing

import Persistence

/// Decimal against Double (and Int64 against Double) in predicates: exact, and the same in
/// SQL and in the in-memory evaluator. A Double means its shortest round-trip decimal.
@Suite struct DecimalDoubleComparisonTests {
    static let decimals = [
        "0", "0.1", "-0.1", "0.3", "0.30000000000000004", "1", "123.456", "9007199254740992",
        "9007199254740993", "-9007199254740993", "100000000000000000000",
        "12345678901234567890123456789012345678", "0.00000000000000000000000000000000000001",
        "0.1000000000000000055511151231257827", "0.1000000000000000000001", "-1e127", "1e127",
    ]
    static let doubles: [Double] = [
        0, -0.0, 0.1, -0.1, 0.3, 0.1 + 0.2, 1, 123.456, 9_007_199_254_740_992, 9_007_199_254_740_994,
        -9_007_199_254_740_992, 1e20, 1e38, 1.2345678901234568e37, 1e-38, 1e127, -1e127, 1e128,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e-300, 1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .infinity, -.infinity, 9.223372036854775807e18, -9.223372036854775808e18, 0.5, -0.5,
    ]
    static let integers: [Int64] = [
        0, 1, -1, 9_007_199_254_740_992, 9_007_199_254_740_993, -9_007_199_254_740_993, .max, .min,
    ]
    static let operators = ["==", "!=", "<", "<=", ">", ">="]

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Value") {
                Attribute("name", .string)
                Attribute("dec", .decimal)
                Attribute("dbl", .double)
                Attribute("int", .integer64)
            }
        }
    }

    /// One object per decimal, per double (and NaN) and per integer, plus one with nothing set.
    static func make() throws -> (PersistentContainer, ManagedObjectContext) {
        let container = try PersistentContainer(model: model(), storeURL: nil)
        let context = container.viewContext
        for text in decimals {
            let object = try context.insertObject(forEntityName: "Value")
            object["name"] = "dec \(text)"
            try object.setValue(try DecimalText.parse(text), forKey: "dec")
        }
        for double in doubles + [.nan] {
            let object = try context.insertObject(forEntityName: "Value")
            object["name"] = "dbl \(double)"
            object["dbl"] = double
        }
        for integer in integers {
            let object = try context.insertObject(forEntityName: "Value")
            object["name"] = "int \(integer)"
            object["int"] = integer
        }
        _ = try context.insertObject(forEntityName: "Value")
        try context.save()
        return (container, context)
    }

    /// Names matched through SQL and in memory, sorted.
    static func both(_ context: ManagedObjectContext, _ predicate: FetchPredicate) throws -> (sql: [String], memory: [String]) {
        func name(_ object: ManagedObject) -> String { object["name"] as? String ?? "nil" }
        let sql = try context.fetch(FetchRequest(entityName: "Value", predicate: predicate)).map(name).sorted()
        let all = try context.fetch(FetchRequest(entityName: "Value"))
        let memory = try all.filter { try predicate.evaluate(with: $0) }.map(name).sorted()
        return (sql, memory)
    }

    // MARK: - Property tests: SQL and memory agree

    @Test func decimalColumnAgainstDoubleLiteralsAgreesInSQLAndMemory() throws {
        let (_, context) = try Self.make()
        for double in Self.doubles {
            for op in Self.operators {
                let predicate = try FetchPredicate(format: "dec \(op) %@", argumentArray: [double])
                let (sql, memory) = try Self.both(context, predicate)
                #expect(sql == memory, "dec \(op) \(double)")
            }
        }
    }

    /// A Decimal column below or at a Decimal or integer literal is first bounded in REAL
    /// (see `PredicateSQLCompiler.decimalColumn`): the bound never drops a row the exact
    /// comparison keeps, next to values that differ only past a Double's precision, for zero,
    /// negative, tiny and huge values, NULL and NaN.
    @Test func decimalColumnAgainstDecimalAndIntegerLiteralsAgreesInSQLAndMemory() throws {
        let (_, context) = try Self.make()
        let nan = try context.insertObject(forEntityName: "Value")
        nan["name"] = "dec NaN"
        try nan.setValue(Decimal.nan, forKey: "dec")
        let neighbours = ["0.1000000000000000000002", "0.0999999999999999999999", "-0.00000000000000000000000000000000000001"]
        for text in neighbours {
            let object = try context.insertObject(forEntityName: "Value")
            object["name"] = "dec \(text)"
            try object.setValue(try DecimalText.parse(text), forKey: "dec")
        }
        try context.save()
        // A NaN is saved as the text `NaN` and read back as a NaN.
        context.reset()
        let named = FetchRequest(entityName: "Value", predicate: try FetchPredicate("name == 'dec NaN'"))
        #expect((try context.fetch(named).first?["dec"] as? Decimal)?.isNaN == true)
        let texts = Self.decimals + ["0.1000000000000000000001", "-0.00000000000000000000000000000000000001"]
        let literals: [Any] = try texts.map(DecimalText.parse) + Self.integers
        for literal in literals {
            for op in Self.operators {
                let predicate = try FetchPredicate(format: "dec \(op) %@", argumentArray: [literal])
                let (sql, memory) = try Self.both(context, predicate)
                #expect(sql == memory, "dec \(op) \(literal)")
                let negated = try FetchPredicate(format: "NOT (dec \(op) %@)", argumentArray: [literal])
                let (notSQL, notMemory) = try Self.both(context, negated)
                #expect(notSQL == notMemory, "NOT (dec \(op) \(literal))")
            }
        }
    }

    @Test func doubleColumnAgainstDecimalLiteralsAgreesInSQLAndMemory() throws {
        let (_, context) = try Self.make()
        for text in Self.decimals {
            let decimal = try DecimalText.parse(text)
            for op in Self.operators {
                let predicate = try FetchPredicate(format: "dbl \(op) %@", argumentArray: [decimal])
                let (sql, memory) = try Self.both(context, predicate)
                #expect(sql == memory, "dbl \(op) \(text)")
            }
        }
    }

    @Test func integerColumnAgainstDoubleLiteralsAgreesInSQLAndMemory() throws {
        let (_, context) = try Self.make()
        for double in Self.doubles {
            for op in Self.operators {
                let predicate = try FetchPredicate(format: "int \(op) %@", argumentArray: [double])
                let (sql, memory) = try Self.both(context, predicate)
                #expect(sql == memory, "int \(op) \(double)")
            }
        }
    }

    // MARK: - The answers themselves

    @Test func aDoubleLiteralMeansItsShortestDecimal() throws {
        let (_, context) = try Self.make()
        func matches(_ format: String, _ argument: Any) throws -> [String] {
            let (sql, memory) = try Self.both(context, try FetchPredicate(format: format, argumentArray: [argument]))
            #expect(sql == memory, "\(format) \(argument)")
            return sql
        }
        #expect(try matches("dec == %@", 0.1) == ["dec 0.1"])
        #expect(try matches("dec == %@", 0.1 + 0.2) == ["dec 0.30000000000000004"])
        // Past 2⁵³ every digit counts: 9007199254740993 is not the Double 9007199254740992.
        #expect(try matches("dec == %@", 9_007_199_254_740_992.0) == ["dec 9007199254740992"])
        #expect(try matches("dec > %@", 9_007_199_254_740_992.0).contains("dec 9007199254740993"))
        #expect(try matches("dec < %@", -9_007_199_254_740_992.0) == ["dec -1e127", "dec -9007199254740993"])
        #expect(try matches("dec >= %@", Double.infinity) == [])
        #expect(try matches("dec < %@", Double.infinity).count == Self.decimals.count)
        let positive = try matches("dec > %@", 0.0)
        #expect(try matches("dec > %@", Double.leastNonzeroMagnitude) == positive)
        #expect(positive.count == 13)
        #expect(try matches("dec > %@", 1e300) == [])
        #expect(try matches("dbl == %@", try DecimalText.parse("0.1")) == ["dbl 0.1"])
        #expect(try matches("dbl == %@", try DecimalText.parse("0.1000000000000000000001")) == [])
        #expect(try matches("dbl < %@", try DecimalText.parse("0.1000000000000000000001")).contains("dbl 0.1"))
        #expect(try matches("dbl > %@", try DecimalText.parse("0.0999999999999999999999")).contains("dbl 0.1"))
        #expect(try matches("int == %@", 9_007_199_254_740_992.0) == ["int 9007199254740992"])
        #expect(try matches("int < %@", 9.223372036854775807e18).contains("int 9223372036854775807"))
        #expect(try matches("int >= %@", -9.223372036854775808e18).count == Self.integers.count)
    }

    @Test func plainTextOfADoubleIsItsShortestDecimalWithoutExponent() throws {
        #expect(DecimalText.plainText(of: 0.1) == "0.1")
        #expect(DecimalText.plainText(of: -0.0) == "0")
        #expect(DecimalText.plainText(of: 123.0) == "123")
        #expect(DecimalText.plainText(of: -123.456) == "-123.456")
        #expect(DecimalText.plainText(of: 1e16) == "10000000000000000")
        #expect(DecimalText.plainText(of: 1e-5) == "0.00001")
        #expect(DecimalText.plainText(of: 1.5e-7) == "0.00000015")
        #expect(DecimalText.plainText(of: Double.leastNonzeroMagnitude) == "0." + String(repeating: "0", count: 323) + "5")
        #expect(DecimalText.plainText(of: 1.7976931348623157e308) == "17976931348623157" + String(repeating: "0", count: 292))
        #expect(DecimalText.plainText(of: .infinity) == nil)
        #expect(DecimalText.plainText(of: .nan) == nil)
        #expect(DecimalText.compare(Decimal(1), .nan) == nil)
        #expect(DecimalText.compare(try DecimalText.parse("0.1"), 0.1) == .orderedSame)
    }
}
