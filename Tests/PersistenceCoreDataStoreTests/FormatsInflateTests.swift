import Foundation
import PersistenceCoreDataStore
import Testing

/// Raw DEFLATE: Core Data's Z_MODELCACHE inflated, our own streams read back, and bombs,
/// truncations and garbage refused.
@Suite struct FormatsInflateTests {
    @Test func inflatesTheModelCacheCoreDataWrote() throws {
        let archive = try Inflate.decompress(FormatsFixture.modelCache)
        #expect(BinaryPropertyList.isBinaryPropertyList(archive))
        #expect(archive.count == 5_642)
    }

    @Test func deflatedBytesInflateToThemselves() throws {
        let text = Data(String(repeating: "Cien años de soledad. ", count: 500).utf8)
        var generator = SystemRandomNumberGenerator()
        let noise = Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        for original in [Data(), Data([42]), text, noise] {
            let compressed = try Deflate.compress(original)
            #expect(try Inflate.decompress(compressed) == original)
        }
        #expect(try Deflate.compress(text).count < text.count / 10)
    }

    @Test func aStreamExpandingBeyondTheLimitIsRefused() throws {
        let zeros = try Deflate.compress(Data(count: 4 << 20))
        #expect(zeros.count < 8_000)
        do {
            _ = try Inflate.decompress(zeros, maximumOutputSize: 1 << 20)
            Issue.record("a 4 MiB stream inflated under a 1 MiB limit")
        } catch let error as CoreDataFormatError {
            #expect(error.description.contains("limit"), "\(error)")
        }
        #expect(try Inflate.decompress(zeros, maximumOutputSize: 4 << 20).count == 4 << 20)
        #expect(Inflate.defaultMaximumOutputSize == 64 << 20)
    }

    @Test func truncatedStreamsAreRefused() throws {
        let compressed = try Deflate.compress(
            Data(String(repeating: "abcdefgh", count: 1_000).utf8))
        for length in [0, 1, compressed.count / 2, compressed.count - 1] {
            #expect(throws: CoreDataFormatError.self) {
                try Inflate.decompress(compressed.prefix(length))
            }
        }
    }

    @Test func invalidCodesAreRefusedInOneLine() {
        do {
            _ = try Inflate.decompress(Data([0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x01]))
            Issue.record("garbage inflated")
        } catch {
            #expect(!"\(error)".contains("\n"))
            #expect("\(error)".hasPrefix("Invalid DEFLATE stream"), "\(error)")
        }
    }
}
