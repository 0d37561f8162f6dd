import Foundation
import Persistence

/// A `Sample` of the conformance model with typed properties, for typed predicates and
/// sorts on dates, booleans, UUIDs and every number width.
final class TypedSample: ManagedObject, PropertyKeyPathNaming {
    var n: Int64 { value(forKey: "n", default: -1) }
    var i16: Int16? { value(forKey: "i16") }
    var i32: Int32? { value(forKey: "i32") }
    var dbl: Double? { value(forKey: "dbl") }
    var flt: Float? { value(forKey: "flt") }
    var dec: Decimal? { value(forKey: "dec") }
    var str: String? { value(forKey: "str") }
    var flag: Bool? { value(forKey: "flag") }
    var when: Date? { value(forKey: "when") }
    var id: UUID? { value(forKey: "id") }
    var owner: TypedAuthor? { object(forKey: "owner") as? TypedAuthor }

    static var propertyNamesByKeyPath: [AnyKeyPath: String] {
        [
            \TypedSample.n: "n", \TypedSample.i16: "i16", \TypedSample.i32: "i32",
            \TypedSample.dbl: "dbl", \TypedSample.flt: "flt", \TypedSample.dec: "dec",
            \TypedSample.str: "str", \TypedSample.flag: "flag", \TypedSample.when: "when",
            \TypedSample.id: "id", \TypedSample.owner: "owner",
        ]
    }

    /// Twelve samples' values, by serial number: nils every fifth, ties, negative numbers.
    static func insert(into subject: StoreUnderTest) throws {
        for n in 0..<12 {
            let absent = n % 5 == 4
            try subject.insert(
                "Sample",
                [
                    "n": Int64(n),
                    "i16": absent ? nil : Int16(n % 4 - 1),
                    "i32": absent ? nil : Int32(n * 1000),
                    "dbl": absent ? nil : Double(n) / 4 - 1,
                    "flt": absent ? nil : Float(n % 3) + 0.5,
                    "dec": absent ? nil : Decimal(n % 6) / 2,
                    "str": absent ? nil : ["b", "a", "B", "c"][n % 4],
                    "flag": absent ? nil : n % 2 == 0,
                    "when": absent ? nil : sampleDate(day: n % 7),
                    "id": absent ? nil : sampleUUID(n % 3),
                ])
        }
        try subject.context.save()
    }

    /// 2020-01-(1 + day) at noon UTC.
    static func sampleDate(day: Int) -> Date {
        Date(timeIntervalSince1970: 1_577_880_000 + Double(day) * 86_400)
    }

    /// One of three fixed UUIDs.
    static func sampleUUID(_ k: Int) -> UUID {
        UUID(uuidString: "00000000-0000-0000-0000-00000000000\(k)") ?? UUID()
    }
}
