import Foundation
import Testing

import Persistence

@Suite struct SHA256Tests {
    /// NIST FIPS 180-4 example messages and their digests.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
                + "klmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func nistVectorsHashToTheirDigests(message: String, digest: String) {
        #expect(SHA256.hexDigest(Data(message.utf8)) == digest)
        #expect(SHA256.hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func oneMillionLetterAHashesToTheNISTDigest() {
        var hasher = SHA256()
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 1_000)
        for _ in 0..<1_000 { hasher.update(chunk) }
        #expect(
            SHA256.hex(hasher.finalize())
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        let whole = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(
            SHA256.hexDigest(whole)
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding boundaries (55 bytes fit one block with the length, 56 do
    /// not), checked against `sha256sum`.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        (128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
    ])
    func paddingBoundaryLengthsHashCorrectly(length: Int, digest: String) {
        #expect(SHA256.hexDigest(Data(repeating: UInt8(ascii: "a"), count: length)) == digest)
    }

    @Test(arguments: [
        [55], [56], [63], [64], [65], [1, 63], [55, 1, 8], [64, 64, 1], [0, 3, 0],
    ])
    func updatesSplitAtAwkwardBoundariesGiveTheSameDigest(splits: [Int]) {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let expected = SHA256.hash(message)
        var hasher = SHA256()
        var offset = 0
        for length in splits {
            hasher.update(Data(message[offset..<(offset + length)]))
            offset += length
        }
        hasher.update(message[offset...])
        #expect(hasher.finalize() == expected)
    }

    @Test func byteByByteAndNonContiguousSequencesAgreeWithOneShot() {
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0) }
        var single = SHA256()
        for byte in message { single.update(CollectionOfOne(byte)) }
        var lazy = SHA256()
        lazy.update((0..<200).lazy.map { UInt8(truncatingIfNeeded: $0) })
        let expected = SHA256.hash(Data(message))
        #expect(single.finalize() == expected)
        #expect(lazy.finalize() == expected)
        #expect(expected.count == SHA256.digestByteCount)
    }

    @Test func differentMessagesHaveDifferentDigests() {
        #expect(SHA256.hash(Data("abc".utf8)) != SHA256.hash(Data("abd".utf8)))
    }

    @Test func hexWritesTwoLowerCaseDigitsPerByte() {
        #expect(SHA256.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(SHA256.hex([UInt8]()) == "")
    }
}
