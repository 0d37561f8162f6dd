import Foundation
import Testing

/// What the layer targets cannot enforce by themselves: the SQLite C API and libpq stay in
/// their wrappers, and SQL in the SQLite wrapper and the store targets that own a layout of
/// tables (the SQLite store's; Core Data's in PersistenceCoreDataStore, which reads and writes
/// the `Z` tables Core Data made, so it must speak their SQL; PostgreSQL's), and the relational
/// core below them (PersistenceRelational), which compiles fetches into SQL over a store's
/// layout but opens no database. (An import of a
/// higher layer already fails to compile: each target lists only the layers below it in
/// Package.swift.)
@Suite struct ArchitectureTests {
    /// The repository's `Sources` directory.
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Every Swift file under `Sources`, by target, with its text.
    private static func swiftFiles() throws -> [(target: String, path: String, text: String)] {
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        var files: [(String, String, String)] = []
        for target in targets.sorted() {
            let root = sources.appendingPathComponent(target)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in walker where path.hasSuffix(".swift") {
                let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                files.append((target, "\(target)/\(path)", text))
            }
        }
        return files
    }

    @Test func onlyTheSQLiteWrapperImportsTheCLibraryOrCallsIt() throws {
        let offenders = try Self.swiftFiles().filter { file in
            file.target != "PersistenceSQLite"
                && (file.text.contains("import CSQLite") || file.text.contains("sqlite3_"))
        }
        #expect(offenders.map(\.path) == [])
    }

    @Test func onlyThePostgreSQLStoreImportsLibpqOrCallsIt() throws {
        let call = try Regex(#"\bPQ[a-z]+\("#)
        let offenders = try Self.swiftFiles().filter { file in
            file.target != "PersistencePostgreSQLStore" && (file.text.contains("import CLibPQ") || file.text.contains(call))
        }
        #expect(offenders.map(\.path) == [])
    }

    @Test func sqlTextAppearsOnlyInTheStoresAndTheSQLiteWrapper() throws {
        // A string literal that starts an SQL statement.
        let statement = try Regex(#""\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|BEGIN|COMMIT)\s"#)
        let offenders = try Self.swiftFiles().filter { file in
            ![
                "PersistenceSQLite", "PersistenceSQLiteFiles", "PersistenceRelational", "PersistenceSQLiteStore",
                "PersistenceCoreDataStore", "PersistencePostgreSQLStore",
            ].contains(file.target)
                && file.text.split(separator: "\n").contains { line in
                    !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(statement)
                }
        }
        #expect(offenders.map(\.path) == [])
    }

    /// The Core Data store shares the SQLite-file checks and errors (PersistenceSQLiteFiles)
    /// and the relational core with the SQLite store, never the SQLite store itself.
    @Test func theStoresDependOnNoOtherStore() throws {
        let stores = ["PersistenceSQLiteStore", "PersistenceCoreDataStore", "PersistencePostgreSQLStore"]
        let offenders = try Self.swiftFiles().filter { file in
            stores.contains(file.target) && stores.contains { $0 != file.target && file.text.contains("import \($0)\n") }
        }
        #expect(offenders.map(\.path) == [])
    }

    @Test func theAppAndItsCatalogueNameNoStoreInternals() throws {
        let internals = ["SQLiteStore", "StoreSchema", "EntityMapping", "TableMapping", "RowCodec", "Database(", "SQLiteValue"]
        let offenders = try Self.swiftFiles().filter { file in
            ["books", "BookCatalog"].contains(file.target) && internals.contains { file.text.contains($0) }
        }
        #expect(offenders.map(\.path) == [])
    }

    /// Tests live by module, as `Tests/<Module>Tests` (a module of `Sources`, or a test-support
    /// module of `Tests`); the suites that check several modules at once say so by name here.
    @Test func everyTestTargetIsNamedForTheModuleItTests() throws {
        let tests = Self.sources.deletingLastPathComponent().appendingPathComponent("Tests")
        let acrossModules: Set = [
            "PersistentStoreConformanceTests",  // every store, through the PersistentStore protocol
            "BooksCLITests",  // the built `books` and `persistence-tool`, as a user runs them
            "FuzzTests",  // the catalogue and the stores, with generated input
        ]
        func key(_ name: String) -> String { name.lowercased().replacingOccurrences(of: "-", with: "") }
        let modules = Set(
            try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).map(key)
                + FileManager.default.contentsOfDirectory(atPath: tests.path).map(key))
        let offenders = try FileManager.default.contentsOfDirectory(atPath: tests.path).filter { name in
            name.hasSuffix("Tests") && !acrossModules.contains(name) && !modules.contains(key(String(name.dropLast(5))))
        }
        #expect(offenders.sorted() == [])
    }
}
