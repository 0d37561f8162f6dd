import Foundation

/// Reads one binary property list, checking every offset, reference and count against the
/// bytes (see `BinaryPropertyList`).
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topObject: Int
    private let offsetTableStart: Int
    /// Objects already read, with the number of values each expands to.
    private var cache: [Int: (value: PropertyListValue, size: Int)] = [:]
    /// Objects being read, to find cycles.
    private var inProgress: Set<Int> = []
    private var depth = 0

    private static let trailerSize = 32
    private static let headerSize = 8

    /// Checks the header and the trailer.
    init(bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= Self.headerSize + Self.trailerSize + 1 else {
            throw Self.error(
                at: "the start", "\(bytes.count) bytes are too few for a binary property list")
        }
        guard bytes.prefix(8).elementsEqual("bplist00".utf8) else {
            throw Self.error(at: "the start", "the header is not 'bplist00'")
        }
        let trailer = bytes.count - Self.trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = Self.bigEndian(bytes[(trailer + 8)..<(trailer + 16)])
        let top = Self.bigEndian(bytes[(trailer + 16)..<(trailer + 24)])
        let table = Self.bigEndian(bytes[(trailer + 24)..<(trailer + 32)])
        let location = "the trailer"
        guard (1...8).contains(offsetSize) else {
            throw Self.error(at: location, "the offset size \(offsetSize) is not 1 to 8 bytes")
        }
        guard (1...8).contains(referenceSize) else {
            throw Self.error(
                at: location, "the object reference size \(referenceSize) is not 1 to 8 bytes")
        }
        guard count >= 1, count <= UInt64(trailer) else {
            throw Self.error(
                at: location, "the object count \(count) does not fit in \(bytes.count) bytes")
        }
        objectCount = Int(count)
        guard top < count else {
            throw Self.error(
                at: location, "the top object \(top) is not one of the \(count) objects")
        }
        topObject = Int(top)
        guard table >= UInt64(Self.headerSize), table <= UInt64(trailer),
            UInt64(trailer) - table >= count * UInt64(offsetSize)
        else {
            throw Self.error(
                at: location,
                "the offset table at \(table) with \(count) offsets of \(offsetSize) bytes does not fit"
            )
        }
        offsetTableStart = Int(table)
    }

    /// Reads the top object.
    mutating func readTopObject() throws -> PropertyListValue {
        try readObject(topObject).value
    }

    // MARK: - Objects

    private mutating func readObject(_ index: Int) throws -> (value: PropertyListValue, size: Int) {
        if let cached = cache[index] { return cached }
        guard !inProgress.contains(index) else {
            throw Self.error(at: "object \(index)", "the object contains itself (a cycle)")
        }
        let entry = offsetTableStart + index * offsetSize
        let offset64 = Self.bigEndian(bytes[entry..<(entry + offsetSize)])
        guard offset64 >= UInt64(Self.headerSize), offset64 < UInt64(offsetTableStart) else {
            throw Self.error(
                at: "object \(index)", "its offset \(offset64) lies outside the objects")
        }
        let offset = Int(offset64)
        inProgress.insert(index)
        depth += 1
        defer {
            inProgress.remove(index)
            depth -= 1
        }
        guard depth <= BinaryPropertyList.maximumDepth else {
            throw Self.error(
                at: "object \(index) at offset \(offset)",
                "nesting deeper than \(BinaryPropertyList.maximumDepth) levels")
        }
        let result = try readObject(at: offset, index: index)
        cache[index] = result
        return result
    }

    private mutating func readObject(at offset: Int, index: Int) throws -> (
        value: PropertyListValue, size: Int
    ) {
        let here = "object \(index) at offset \(offset)"
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00, 0x0F: return (.null, 1)
            case 0x08: return (.bool(false), 1)
            case 0x09: return (.bool(true), 1)
            default: throw Self.error(at: here, "unknown marker 0x\(String(marker, radix: 16))")
            }
        case 0x1:
            return (try readInteger(at: offset + 1, sizeExponent: low, where: here), 1)
        case 0x2:
            guard low == 2 || low == 3 else {
                throw Self.error(at: here, "a real of 2^\(low) bytes (only 4 and 8 are valid)")
            }
            let raw = try field(at: offset + 1, length: 1 << low, where: here)
            let bits = Self.bigEndian(raw)
            let real = low == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
            return (.real(real), 1)
        case 0x3:
            guard marker == 0x33 else {
                throw Self.error(at: here, "unknown marker 0x\(String(marker, radix: 16))")
            }
            let seconds = Double(
                bitPattern: Self.bigEndian(try field(at: offset + 1, length: 8, where: here)))
            // Foundation's Date.description traps on NaN: such a date must not get out.
            guard seconds.isFinite else {
                throw Self.error(at: here, "a date that is not a finite number of seconds")
            }
            return (.date(Date(timeIntervalSinceReferenceDate: seconds)), 1)
        case 0x4:
            let (count, start) = try readCount(low, at: offset, where: here)
            return (.data(Data(try field(at: start, length: count, where: here))), 1)
        case 0x5:
            let (count, start) = try readCount(low, at: offset, where: here)
            let raw = try field(at: start, length: count, where: here)
            return (.string(String(raw.map { Character(Unicode.Scalar($0)) })), 1)
        case 0x6:
            let (count, start) = try readCount(low, at: offset, where: here)
            guard count <= (bytes.count - start) / 2 else {
                throw Self.error(at: here, "a string of \(count) UTF-16 units runs past the end")
            }
            let raw = try field(at: start, length: count * 2, where: here)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            var position = raw.startIndex
            while position < raw.endIndex {
                units.append(UInt16(raw[position]) << 8 | UInt16(raw[position + 1]))
                position += 2
            }
            return (.string(String(decoding: units, as: UTF16.self)), 1)
        case 0x8:
            let raw = try field(at: offset + 1, length: low + 1, where: here)
            guard raw.count <= 8 else {
                throw Self.error(at: here, "a UID of \(raw.count) bytes (at most 8)")
            }
            return (.uid(Self.bigEndian(raw)), 1)
        case 0xA, 0xC:
            let (count, start) = try readCount(low, at: offset, where: here)
            let references = try readReferences(count: count, at: start, where: here)
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(count)
            var size = 1
            for reference in references {
                let element = try readObject(reference)
                elements.append(element.value)
                size = try add(size, element.size, where: here)
            }
            return (marker >> 4 == 0xA ? .array(elements) : .set(elements), size)
        case 0xD:
            let (count, start) = try readCount(low, at: offset, where: here)
            guard count <= Int.max / 2 else {
                throw Self.error(at: here, "an absurd count \(count)")
            }
            let references = try readReferences(count: count * 2, at: start, where: here)
            var entries: [String: PropertyListValue] = [:]
            entries.reserveCapacity(count)
            var size = 1
            for position in 0..<count {
                let key = try readObject(references[position])
                guard case .string(let name) = key.value else {
                    throw Self.error(
                        at: here,
                        "key \(position) is \(key.value.kindWithArticle), not a string (object \(references[position]))"
                    )
                }
                let value = try readObject(references[count + position])
                entries[name] = value.value
                size = try add(size, value.size + 1, where: here)
            }
            return (.dictionary(entries), size)
        default:
            throw Self.error(at: here, "unknown marker 0x\(String(marker, radix: 16))")
        }
    }

    // MARK: - Fields

    /// Reads an integer object's value: 1, 2 and 4 bytes unsigned, 8 signed, 16 when it
    /// fits in 64 bits.
    private func readInteger(at start: Int, sizeExponent: Int, where location: String) throws
        -> PropertyListValue
    {
        guard sizeExponent <= 4 else {
            throw Self.error(at: location, "an integer of 2^\(sizeExponent) bytes (at most 16)")
        }
        let raw = try field(at: start, length: 1 << sizeExponent, where: location)
        switch sizeExponent {
        case 0, 1, 2: return .integer(Int64(Self.bigEndian(raw)))
        case 3: return .integer(Int64(bitPattern: Self.bigEndian(raw)))
        default:
            let high = Self.bigEndian(raw.prefix(8))
            let low = Self.bigEndian(raw.suffix(8))
            if high == 0 {
                return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low)
            }
            if high == UInt64.max, low > UInt64(Int64.max) {
                return .integer(Int64(bitPattern: low))
            }
            throw Self.error(at: location, "a 128-bit integer that does not fit in 64 bits")
        }
    }

    /// The count in a marker's low nibble, or in the integer object after it when the nibble
    /// is 0xF; and where the contents start.
    private func readCount(_ nibble: Int, at offset: Int, where location: String) throws -> (
        count: Int, start: Int
    ) {
        guard nibble == 0xF else { return (nibble, offset + 1) }
        guard offset + 1 < offsetTableStart else {
            throw Self.error(at: location, "the count runs past the objects")
        }
        let marker = bytes[offset + 1]
        let exponent = Int(marker & 0x0F)
        guard marker >> 4 == 0x1, exponent <= 3 else {
            throw Self.error(at: location, "the count is not an integer of 1 to 8 bytes")
        }
        guard
            case .integer(let count) = try readInteger(
                at: offset + 2, sizeExponent: exponent, where: location),
            count >= 0, count <= Int64(bytes.count)
        else {
            throw Self.error(at: location, "an absurd count, larger than the file")
        }
        return (Int(count), offset + 2 + (1 << exponent))
    }

    /// `count` object references starting at `start`, each checked to name an object.
    private func readReferences(count: Int, at start: Int, where location: String) throws -> [Int] {
        guard count <= (offsetTableStart - min(start, offsetTableStart)) / referenceSize else {
            throw Self.error(at: location, "\(count) object references run past the objects")
        }
        var references: [Int] = []
        references.reserveCapacity(count)
        var position = start
        for _ in 0..<count {
            let reference = Self.bigEndian(bytes[position..<(position + referenceSize)])
            guard reference < UInt64(objectCount) else {
                throw Self.error(
                    at: location,
                    "the reference \(reference) is not one of the \(objectCount) objects")
            }
            references.append(Int(reference))
            position += referenceSize
        }
        return references
    }

    /// `length` bytes from `start`, which must lie before the offset table.
    private func field(at start: Int, length: Int, where location: String) throws -> ArraySlice<
        UInt8
    > {
        guard length >= 0, start <= offsetTableStart, length <= offsetTableStart - start else {
            throw Self.error(at: location, "\(length) bytes run past the objects")
        }
        return bytes[start..<(start + length)]
    }

    /// Adds expanded value counts, refusing more than `BinaryPropertyList.maximumValueCount`.
    private func add(_ a: Int, _ b: Int, where location: String) throws -> Int {
        let sum = a + b
        guard sum <= BinaryPropertyList.maximumValueCount else {
            throw Self.error(
                at: location,
                "the objects expand to more than \(BinaryPropertyList.maximumValueCount) values")
        }
        return sum
    }

    private static func bigEndian(_ raw: ArraySlice<UInt8>) -> UInt64 {
        raw.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func error(at location: String, _ reason: String) -> CoreDataFormatError {
        CoreDataFormatError(.binaryPropertyList, at: location, reason)
    }
}
