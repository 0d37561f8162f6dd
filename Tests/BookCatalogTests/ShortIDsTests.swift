import Foundation
import Testing

@testable import BookCatalog

/// Short IDs worked out from a UUID's bytes are the ones its text gives: the shortest prefix
/// of at least eight digits that no neighbour in UUID order shares.
@Suite struct ShortIDsTests {
    /// The short IDs by the definition, from each UUID's text.
    private func reference(_ uuids: [UUID]) -> [UUID: String] {
        let sorted = uuids.sorted { $0.uuidString < $1.uuidString }
        let digits = sorted.map { $0.uuidString.filter { $0 != "-" } }
        var needed = [Int](repeating: ShortIDs.minimumDigits, count: sorted.count)
        for index in sorted.indices.dropFirst() {
            let shared = zip(digits[index - 1], digits[index]).prefix { $0 == $1 }.count
            if shared >= ShortIDs.minimumDigits {
                needed[index] = max(needed[index], shared + 1)
                needed[index - 1] = max(needed[index - 1], shared + 1)
            }
        }
        var ids: [UUID: String] = [:]
        for (index, uuid) in sorted.enumerated() {
            ids[uuid] = ShortIDs.hyphenated(String(digits[index].prefix(min(32, needed[index]))))
        }
        return ids
    }

    @Test func shortIDsFromBytesMatchTheTextualDefinition() {
        var random = SystemRandomNumberGenerator()
        var uuids: [UUID] = []
        // Neighbours sharing 8…32 digits, the shared run ending on either half of a byte.
        for shared in 8...32 {
            var bytes = UUID().uuid
            withUnsafeMutableBytes(of: &bytes) { $0[0] = UInt8.random(in: 0...255, using: &random) }
            let base = UUID(uuid: bytes)
            var other = base.uuid
            if shared < 32 {
                withUnsafeMutableBytes(of: &other) { raw in
                    let byte = shared / 2
                    raw[byte] ^= shared % 2 == 0 ? 0x10 : 0x01
                }
            }
            uuids.append(base)
            if shared < 32 { uuids.append(UUID(uuid: other)) }
        }
        for _ in 0..<500 { uuids.append(UUID()) }
        var ids = ShortIDs()
        for uuid in uuids.sorted(by: { $0.uuidString < $1.uuidString }) { ids.append(uuid) }
        let expected = reference(uuids)
        for uuid in uuids {
            #expect(ids.shortID(of: uuid) == expected[uuid], "\(uuid)")
        }
        for uuid in uuids.prefix(20) {
            #expect(ShortIDs.digits(of: uuid) == uuid.uuidString.filter { $0 != "-" })
        }
    }
}
