import Foundation

/// Writes one binary property list (see `BinaryPropertyList`): the objects flattened depth
/// first, scalars stored once, then the offset table and the trailer.
struct BinaryPropertyListWriter {
    /// One flattened object: a scalar, or a collection of other objects' numbers.
    private enum Flat {
        case scalar(PropertyListValue)
        case array([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    private var objects: [Flat] = []
    private var scalars: [PropertyListValue: Int] = [:]

    /// The bytes of `value` as a binary property list.
    mutating func write(_ value: PropertyListValue) -> Data {
        let top = flatten(value)
        let referenceSize = Self.byteCount(for: UInt64(objects.count))
        var output: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(output.count)
            append(object, referenceSize: referenceSize, to: &output)
        }
        let tableOffset = output.count
        let offsetSize = Self.byteCount(for: UInt64(tableOffset))
        for offset in offsets {
            Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &output)
        }
        output.append(contentsOf: [0, 0, 0, 0, 0, 0])
        output.append(UInt8(offsetSize))
        output.append(UInt8(referenceSize))
        Self.appendBigEndian(UInt64(objects.count), size: 8, to: &output)
        Self.appendBigEndian(UInt64(top), size: 8, to: &output)
        Self.appendBigEndian(UInt64(tableOffset), size: 8, to: &output)
        return Data(output)
    }

    // MARK: - Flattening

    private mutating func flatten(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let elements), .set(let elements):
            let index = reserve()
            let references = elements.map { flatten($0) }
            if case .set = value {
                objects[index] = .set(references)
            } else {
                objects[index] = .array(references)
            }
            return index
        case .dictionary(let entries):
            let index = reserve()
            let keys = entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let keyReferences = keys.map { flatten(.string($0)) }
            let valueReferences = keys.map { key in
                entries[key].map { flatten($0) } ?? flatten(.null)
            }
            objects[index] = .dictionary(keys: keyReferences, values: valueReferences)
            return index
        default:
            if let index = scalars[value] { return index }
            let index = objects.count
            objects.append(.scalar(value))
            scalars[value] = index
            return index
        }
    }

    private mutating func reserve() -> Int {
        objects.append(.array([]))
        return objects.count - 1
    }

    // MARK: - Encoding

    private func append(_ object: Flat, referenceSize: Int, to output: inout [UInt8]) {
        switch object {
        case .array(let references):
            Self.appendMarker(0xA, count: references.count, to: &output)
            for reference in references {
                Self.appendBigEndian(UInt64(reference), size: referenceSize, to: &output)
            }
        case .set(let references):
            Self.appendMarker(0xC, count: references.count, to: &output)
            for reference in references {
                Self.appendBigEndian(UInt64(reference), size: referenceSize, to: &output)
            }
        case .dictionary(let keys, let values):
            Self.appendMarker(0xD, count: keys.count, to: &output)
            for reference in keys + values {
                Self.appendBigEndian(UInt64(reference), size: referenceSize, to: &output)
            }
        case .scalar(let value):
            Self.append(scalar: value, to: &output)
        }
    }

    private static func append(scalar value: PropertyListValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(0x00)
        case .bool(let flag): output.append(flag ? 0x09 : 0x08)
        case .integer(let number): appendInteger(number, to: &output)
        case .unsignedInteger(let number):
            if number <= UInt64(Int64.max) {
                appendInteger(Int64(number), to: &output)
            } else {
                output.append(0x14)
                appendBigEndian(0, size: 8, to: &output)
                appendBigEndian(number, size: 8, to: &output)
            }
        case .real(let number):
            output.append(0x23)
            appendBigEndian(number.bitPattern, size: 8, to: &output)
        case .date(let date):
            output.append(0x33)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8, to: &output)
        case .data(let bytes):
            appendMarker(0x4, count: bytes.count, to: &output)
            output.append(contentsOf: bytes)
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x5, count: text.utf8.count, to: &output)
                output.append(contentsOf: text.utf8)
            } else {
                let units = Array(text.utf16)
                appendMarker(0x6, count: units.count, to: &output)
                for unit in units {
                    output.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)])
                }
            }
        case .uid(let index):
            let size = byteCount(for: index)
            output.append(0x80 | UInt8(size - 1))
            appendBigEndian(index, size: size, to: &output)
        case .array, .set, .dictionary:
            break  // flattened before
        }
    }

    /// An integer in its smallest size: 1, 2 or 4 bytes when it is not negative and fits
    /// (those sizes are read as unsigned), 8 otherwise.
    private static func appendInteger(_ number: Int64, to output: inout [UInt8]) {
        let size: Int
        switch number {
        case 0...0xFF: size = 1
        case 0x100...0xFFFF: size = 2
        case 0x1_0000...0xFFFF_FFFF: size = 4
        default: size = 8
        }
        output.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendBigEndian(UInt64(bitPattern: number), size: size, to: &output)
    }

    /// A marker with a count: in the low nibble below 15, else in an integer object after it.
    private static func appendMarker(_ type: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(type << 4 | UInt8(count))
        } else {
            output.append(type << 4 | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    /// The fewest bytes (1, 2, 4 or 8) that hold `value`.
    private static func byteCount(for value: UInt64) -> Int {
        switch value {
        case 0...0xFF: return 1
        case 0x100...0xFFFF: return 2
        case 0x1_0000...0xFFFF_FFFF: return 4
        default: return 8
        }
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
