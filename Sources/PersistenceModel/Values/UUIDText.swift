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
    ///
    /// Every row of a fetch parses one, so the digits are decoded without a branch per digit
    /// (random hex digits made the digit-or-letter branch mispredict about every third time):
    /// validity is collected and checked once at the end.
    package static func parseCanonical(_ utf8: UnsafeRawBufferPointer) -> UUID? {
        guard utf8.count == 36, utf8[8] == dash, utf8[13] == dash, utf8[18] == dash, utf8[23] == dash else {
            return nil
        }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var valid: UInt8 = 1
        withUnsafeMutableBytes(of: &bytes) { out in
            for index in 0..<16 {
                // Bytes 4, 6, 8 and 10 each follow a dash.
                let i = 2 &* index &+ (index >= 4 ? 1 : 0) &+ (index >= 6 ? 1 : 0) &+ (index >= 8 ? 1 : 0)
                    &+ (index >= 10 ? 1 : 0)
                out[index] = nibble(utf8[i], &valid) << 4 | nibble(utf8[i &+ 1], &valid)
            }
        }
        return valid == 1 ? UUID(uuid: bytes) : nil
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

    private static let dash = UInt8(ascii: "-")

    /// A hex digit's value, 0…15, computed without branching; `valid` becomes 0 for any byte
    /// that is not a hex digit of either case. (`&&` and `||` would branch: they short-circuit.)
    @inline(__always)
    private static func nibble(_ c: UInt8, _ valid: inout UInt8) -> UInt8 {
        let isDigit: UInt8 = c &- UInt8(ascii: "0") < 10 ? 1 : 0
        let isLetter: UInt8 = (c | 0x20) &- UInt8(ascii: "a") < 6 ? 1 : 0  // either case
        valid &= isDigit | isLetter
        // '0'…'9' are 0x30…0x39; 'A'…'F' and 'a'…'f' are 0x41…0x46 and 0x61…0x66.
        return (c & 0x0F) &+ 9 &* (c >> 6)
    }
}
