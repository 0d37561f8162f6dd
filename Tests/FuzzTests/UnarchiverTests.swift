import Foundation
import Testing

/// Foundation's keyed unarchiver calls `fatalError` on an unexpected class instead of
/// throwing, so no byte read from a store or file may reach it. Nothing in the product uses
/// it (transformable values go through `ValueTransforming` decoders that check their bytes
/// and throw, fuzzed in `FuzzTests.colorDecoders`); this keeps it that way.
@Suite struct UnarchiverTests {
    static let forbidden = [
        "NSKeyedUnarchiver", "NSUnarchiver", "unarchivedObject", "unarchiveObject", "NSCoding",
        "NSSecureCoding", "NSSecureUnarchiveFromData",
    ]
    // (`PropertyListSerialization`, which reads a model bundle's `.xccurrentversion`, makes
    // only plain values and instantiates no classes: it is not an archiver.)

    @Test func noSourceFileUsesAnArchiverOnStoredBytes() throws {
        let sources = FuzzTests.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 50, "found only \(files.count) Swift files under \(sources.path)")
        var uses: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""  // comments may name it
                for name in Self.forbidden where code.contains(name) {
                    uses.append("\(file.lastPathComponent):\(number + 1): \(name)")
                }
            }
        }
        #expect(uses.isEmpty, "\(uses)")
    }
}
