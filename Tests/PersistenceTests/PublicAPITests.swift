import Foundation
import ProcessTestSupport
import Testing

/// The library's public surface — what `import Persistence` gives an app — is the list
/// checked in as `docs/public-api.txt`, one declaration a line: a change to it shows in the
/// diff of the change that makes it, and nothing becomes public by accident (internal formats
/// and helpers are `package`, which the tools and tests of this package still see).
///
/// The list is read from the compiler's own symbol graph of the built modules
/// (`swift symbolgraph-extract`, public symbols of `Persistence` and the modules it
/// re-exports). After an intended change, write the new list with
/// `PERSISTENCE_UPDATE_API=1 swift test --filter PublicAPITests`.
@Suite struct PublicAPITests {
    static let digest = BuiltProduct.repositoryRoot.appendingPathComponent("docs/public-api.txt")

    /// The modules `Persistence` re-exports, whose public symbols are its surface.
    static let reexported = [
        "PersistenceModel", "PersistenceStore", "PersistenceContext", "PersistenceSQLiteStore", "PersistenceSQLiteFiles",
        "PersistenceCoreDataStore",
    ]

    @Test func thePublicSurfaceIsTheListCheckedIn() throws {
        let current = try Self.publicSymbols()
        #expect(current.count > 500, "the symbol graph looks incomplete: \(current.count) symbols")
        if ProcessInfo.processInfo.environment["PERSISTENCE_UPDATE_API"] == "1" {
            try FileManager.default.createDirectory(
                at: Self.digest.deletingLastPathComponent(), withIntermediateDirectories: true)
            try (current.joined(separator: "\n") + "\n").write(to: Self.digest, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try String(contentsOf: Self.digest, encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let added = Set(current).subtracting(recorded).sorted()
        let removed = Set(recorded).subtracting(current).sorted()
        #expect(
            added.isEmpty && removed.isEmpty,
            """
            The public API differs from docs/public-api.txt (if intended: \
            PERSISTENCE_UPDATE_API=1 swift test --filter PublicAPITests).
            Added:
            \(added.prefix(40).joined(separator: "\n"))
            Removed:
            \(removed.prefix(40).joined(separator: "\n"))
            """)
    }

    @Test func noFormatReaderOrWriterIsPublic() throws {
        let names = try Self.publicSymbols()
        for name in ["Inflate", "Deflate", "BinaryPropertyList", "KeyedArchive", "CompiledModel", "CoreDataVersionHash"] {
            #expect(!names.contains { $0.contains(" \(name).") || $0.contains(" \(name):") }, "\(name) is public")
        }
    }

    /// The DocC catalogue (`docs/Persistence.docc`: the library's guide as articles, and the
    /// symbols' reference from their doc comments) builds without a warning: every symbol
    /// link in a doc comment resolves, every parameter of the documented initializers is
    /// described, every article is reachable.
    @Test func theDocumentationCatalogueBuildsWithoutWarnings() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("docc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let graphs = work.appendingPathComponent("symbol-graphs")
        try Self.writeSymbolGraphs(to: graphs)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "docc", "convert", BuiltProduct.repositoryRoot.appendingPathComponent("docs/Persistence.docc").path,
            "--additional-symbol-graph-dir", graphs.path, "--output-path", work.appendingPathComponent("out").path,
            "--fallback-display-name", "Persistence", "--fallback-bundle-identifier", "org.books.Persistence",
            "--warnings-as-errors",
        ]
        let run = try ChildProcess.run(process)
        #expect(run.status == 0, "docc: \(run.stdoutText)\(run.stderrText)")
    }

    /// The symbol graphs of `Persistence` and the modules it re-exports, public symbols only.
    static func writeSymbolGraphs(to output: URL) throws {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let products = try BuiltProduct.executable(named: "persistence-tool").deletingLastPathComponent()
        let root = BuiltProduct.repositoryRoot
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "symbolgraph-extract", "-module-name", "Persistence", "-target", targetTriple,
            "-I", products.appendingPathComponent("Modules").path,
            "-I", root.appendingPathComponent("Sources/CSQLite").path,
            "-I", root.appendingPathComponent("Sources/CZlib").path,
            "-minimum-access-level", "public", "-output-dir", output.path,
            "-experimental-allowed-reexported-modules=" + reexported.joined(separator: ","),
        ]
        let run = try ChildProcess.run(process)
        guard run.status == 0 else { throw SymbolGraphFailed(message: run.stderrText) }
    }

    /// Each public symbol as `kind path: declaration`, sorted.
    static func publicSymbols() throws -> [String] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("api-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        try writeSymbolGraphs(to: output)
        var lines: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".symbols.json") {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            guard let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let symbols = graph["symbols"] as? [[String: Any]]
            else { continue }
            for symbol in symbols {
                let kind = ((symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?")
                    .replacingOccurrences(of: "swift.", with: "")
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                let declaration = (symbol["declarationFragments"] as? [[String: Any]] ?? [])
                    .compactMap { $0["spelling"] as? String }.joined()
                    .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                lines.insert("\(kind) \(path): \(declaration)")
            }
        }
        return lines.sorted()
    }

    static var targetTriple: String {
        #if arch(arm64)
            "aarch64-unknown-linux-gnu"
        #else
            "x86_64-unknown-linux-gnu"
        #endif
    }

    struct SymbolGraphFailed: Error, CustomStringConvertible {
        var message: String
        var description: String { "swift symbolgraph-extract failed: \(message)" }
    }
}
