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
        let fast: UUID?? = text.withUTF8 { utf8 -> UUID?? in
            guard utf8.count == 36 else { return .none }
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
            return parsed ? .some(UUID(uuid: bytes)) : .none
        }
        if let fast { return fast }
        return UUID(uuidString: text)
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
