import Foundation

/// UUIDs as text, read without Foundation's parser.
///
/// `UUID(uuidString:)` on Linux goes through `sscanf`, which made reading the `uuid`
/// column the largest single cost of fetching 100k books. The store writes the canonical
/// form (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`), so that is parsed by hand here; anything
/// else falls back to Foundation and means what it always meant.
package enum UUIDText {
    /// The UUID written in `text`, or nil when it is not one.
    package static func parse(_ text: String) -> UUID? {
        var text = text
        if let fast = text.withUTF8({ parseCanonical(UnsafeRawBufferPointer($0)) }) { return fast }
        return UUID(uuidString: text)
    }

    /// The UUID in `utf8` when it is in the canonical 36-character form (hex digits of
    /// either case); nil for anything else, including forms Foundation would accept.
    package static func parseCanonical(_ utf8: UnsafeRawBufferPointer) -> UUID? {
        guard utf8.count == 36 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            var i = 0
            for index in 0..<16 {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard utf8[i] == UInt8(ascii: "-") else { return false }
                    i += 1
                }
                guard let high = hexValue(utf8[i]), let low = hexValue(utf8[i + 1]) else { return false }
                out[index] = high << 4 | low
                i += 2
            }
            return true
        }
        return parsed ? UUID(uuid: bytes) : nil
    }

    /// `uuid` in the canonical form the store writes: 36 characters, upper-case hex digits,
    /// the same text as `uuid.uuidString`.
    ///
    /// Written by hand: `uuidString` on Linux goes through `snprintf`, about 3% of seeding
    /// 100,000 books (each book's UUID is encoded for its row and for the object-trump probe).
    package static func format(_ uuid: UUID) -> String {
        let digits: StaticString = "0123456789ABCDEF"
        return withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                digits.withUTF8Buffer { hex in
                    var i = 0
                    for index in 0..<16 {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            out[i] = UInt8(ascii: "-")
                            i += 1
                        }
                        let byte = bytes[index]
                        out[i] = hex[Int(byte >> 4)]
                        out[i + 1] = hex[Int(byte & 0x0F)]
                        i += 2
                    }
                    return i
                }
            }
        }
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
