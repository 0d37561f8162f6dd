import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// The contract's **Rows are values and keys** clause for attributes: a row's slot holds
/// the value saved, of every attribute type, at its edges.
@Suite struct AttributeRoundTripTests {
    /// Samples at the edges of each type, by serial number; nil values in sample 2.
    static func samples() throws -> [[String: AttributeValue]] {
        let low: [String: AttributeValue] = [
            "i16": .integer(Int64(Int16.min)), "i32": .integer(Int64(Int32.min)),
            "i64": .integer(.min),
            "dbl": .double(-.infinity), "flt": .double(-1.5),
            "dec": .decimal(try DecimalText.parse("-99999999999999999999999999999999999999")),
            "str": .string("a\u{0}b 🎉 é\u{301} ß"), "flag": .bool(false),
            "when": .date(Date(timeIntervalSince1970: -1234.5)), "bytes": .data(Data()),
            "id": .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!),
            "link": .url(URL(fileURLWithPath: "/tmp/a b/ł.txt")), "payload": .transformable(""),
        ]
        let high: [String: AttributeValue] = [
            "i16": .integer(Int64(Int16.max)), "i32": .integer(Int64(Int32.max)),
            "i64": .integer(.max),
            "dbl": .double(.infinity), "flt": .double(Double(Float.greatestFiniteMagnitude)),
            "dec": .decimal(try DecimalText.parse("1234567890123456789.0123456789012345678")),
            "str": .string(""), "flag": .bool(true),
            "when": .date(Date(timeIntervalSince1970: 1_700_000_000.123456)),
            "bytes": .data(Data([0, 255, 1, 0])),
            "id": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            "link": .url(URL(string: "https://example.com/a%20b?q=%C5%82#f")!),
            "payload": .transformable("łódź 🎉"),
        ]
        let small: [String: AttributeValue] = [
            "i16": .integer(0), "i32": .integer(-1), "i64": .integer(1),
            "dbl": .double(.leastNonzeroMagnitude),
            "flt": .double(Double(Float.leastNonzeroMagnitude)),
            "dec": .decimal(try DecimalText.parse("0.00000000000000000000000000000000000001")),
            "str": .string("\u{FEFF}x\u{10FFFF}"),
            "when": .date(Date(timeIntervalSince1970: 0.001)),
            "bytes": .data(Data(repeating: 7, count: 4096)),
        ]
        return [low, high, [:], small]
    }

    /// Rows: each attribute's slot holds the value saved, for every stored type at its edges
    /// (integers at their bounds, infinities, a 38-digit decimal, NUL and emoji in a string,
    /// a date with sub-second digits, a transformable through its transformer); an attribute
    /// without a value holds `.null`; a transient holds its default.
    @Test(arguments: StoreFactories.all)
    func everyAttributeTypeRoundTrips(_ factory: StoreFactory) throws {
        let subject = try factory.make(ConformanceModel.make())
        let samples = try Self.samples()
        var inserted: [ManagedObject] = []
        for (n, values) in samples.enumerated() {
            var given: [String: Any?] = ["n": Int64(n)]
            for (key, value) in values { given[key] = value.anyValue }
            inserted.append(try subject.insert("Sample", given))
        }
        try subject.context.save()
        for (n, values) in samples.enumerated() {
            let row = try #require(try subject.store.row(for: inserted[n].objectID))
            for case .attribute(let attribute) in row.schema.properties where attribute.name != "n"
            {
                let expected =
                    attribute.isTransient
                    ? .string("draft") : Self.kept(values[attribute.name] ?? .null, by: factory)
                #expect(row.value(attribute.name) == expected, "sample \(n): \(attribute.name)")
            }
        }
    }

    /// Rows: a double's -0 reads back as a zero (its sign may go, as Core Data's SQLite store
    /// drops it), and NaN as NaN.
    @Test(arguments: StoreFactories.all)
    func negativeZeroReadsAsAZeroAndNaNAsNaN(_ factory: StoreFactory) throws {
        let subject = try factory.make(ConformanceModel.make())
        let sample = try subject.insert("Sample", ["n": Int64(0), "dbl": -0.0, "flt": Double.nan])
        try subject.context.save()
        let row = try #require(try subject.store.row(for: sample.objectID))
        guard case .double(let zero) = row.value("dbl"), case .double(let nan) = row.value("flt")
        else {
            Issue.record(
                "dbl and flt read as \(String(describing: row.value("dbl"))), \(String(describing: row.value("flt")))"
            )
            return
        }
        #expect(zero == 0)
        #expect(nan.isNaN)
    }

    /// Rows: values read after the store is closed and opened again are the values saved.
    @Test(arguments: StoreFactories.reopenable)
    func attributesSurviveReopening(_ factory: StoreFactory) throws {
        let subject = try factory.make(ConformanceModel.make())
        let values = try Self.samples()[1]
        var given: [String: Any?] = ["n": Int64(1)]
        for (key, value) in values { given[key] = value.anyValue }
        let sample = try subject.insert("Sample", given)
        try subject.context.save()
        let id = sample.objectID
        try subject.reopen()
        let row = try #require(try subject.store.row(for: id))
        for (key, value) in values {
            #expect(row.value(key) == Self.kept(value, by: factory), "\(key)")
        }
    }

    /// What `factory`'s stores read back of `value`: the value itself, or for a Decimal in
    /// a store that keeps the nearest Double (see `StoreFactory.keepsEveryDecimalDigit`),
    /// that Double: as an integer when it is one (SQLite's NUMERIC affinity stores it so),
    /// else its shortest digits.
    static func kept(_ value: AttributeValue, by factory: StoreFactory) -> AttributeValue {
        guard !factory.keepsEveryDecimalDigit, case .decimal(let decimal) = value,
            let double = Double(DecimalText.format(decimal))
        else { return value }
        if double.rounded() == double, abs(double) < 9.2e18 { return .decimal(Decimal(Int64(double))) }
        guard let text = DecimalText.plainText(of: double), let nearest = try? DecimalText.parse(text) else { return value }
        return .decimal(nearest)
    }
}
