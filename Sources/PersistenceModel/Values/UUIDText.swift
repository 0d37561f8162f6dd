import Foundation

/// UUIDs as text, read without Foundation's parser.
///
/// `UUID(uuidString:)` on Linux goes through `sscanf`, slow enough to make reading the
/// `uuid` column the largest single cost of a large fetch. The store writes the canonical
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
    /// Every row of a fetch parses one, so the 32 digits are read eight at a time, as the
    /// bytes of one 64-bit word (`hexBytes(_:)`): no branch and no table per digit.
    package static func parseCanonical(_ utf8: UnsafeRawBufferPointer) -> UUID? {
        guard utf8.count == 36, let base = utf8.baseAddress, utf8[8] == dash, utf8[13] == dash, utf8[18] == dash,
            utf8[23] == dash
        else { return nil }
        func eight(at offset: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        func four(at offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        // Digits 0–7, 9–12 and 14–17, 19–22 and 24–27, 28–35: four words of eight.
        guard let first = hexBytes(eight(at: 0)), let second = hexBytes(four(at: 9) | four(at: 14) << 32),
            let third = hexBytes(four(at: 19) | four(at: 24) << 32), let fourth = hexBytes(eight(at: 28))
        else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { out in
            out.storeBytes(of: first.littleEndian, toByteOffset: 0, as: UInt32.self)
            out.storeBytes(of: second.littleEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: third.littleEndian, toByteOffset: 8, as: UInt32.self)
            out.storeBytes(of: fourth.littleEndian, toByteOffset: 12, as: UInt32.self)
        }
        return UUID(uuid: bytes)
    }

    /// The four bytes spelled by the eight hex digits that are `word`'s bytes, the first digit
    /// in the lowest byte; the result's first byte is its lowest too. Nil unless all eight are
    /// hex digits of either case.
    ///
    /// Each test and step works on all eight bytes at once. For bytes under 0x80 (checked),
    /// adding `0x80 - c` to a byte sets its high bit exactly when the byte is at least `c`,
    /// and carries into no other byte.
    @inline(__always)
    private static func hexBytes(_ word: UInt64) -> UInt32? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        func atLeast(_ words: UInt64, _ c: UInt64) -> UInt64 { words &+ ones &* (0x80 - c) }
        let folded = word | 0x2020_2020_2020_2020  // 'A'…'F' to 'a'…'f'
        let digit = atLeast(word, 0x30) & ~atLeast(word, 0x3A)  // '0'…'9'
        let letter = atLeast(folded, 0x61) & ~atLeast(folded, 0x67)  // 'a'…'f'
        guard word & high == 0, (digit | letter) & high == high else { return nil }
        // '0'…'9' are 0x30…0x39, 'A'…'F' and 'a'…'f' 0x41…0x46 and 0x61…0x66: the low four
        // bits, plus 9 where bit 6 is set.
        let values = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (word >> 6 & ones) &* 9
        // Each 16-bit lane holds a byte's first digit low and its second high: the byte is
        // first << 4 | second. Then the four lanes' low bytes are moved together.
        var packed = (values << 4 | values >> 8) & 0x00FF_00FF_00FF_00FF
        packed = (packed | packed >> 8) & 0x0000_FFFF_0000_FFFF
        packed = (packed | packed >> 16) & 0xFFFF_FFFF
        return UInt32(truncatingIfNeeded: packed)
    }

    /// `uuid` in the canonical form the store writes: 36 characters, upper-case hex digits,
    /// the same text as `uuid.uuidString`.
    ///
    /// Written by hand: `uuidString` on Linux goes through `snprintf`, a visible part of
    /// seeding (each book's UUID is encoded for its row and for the object-trump probe).
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
}
