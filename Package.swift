// swift-tools-version:6.1
// The product depends on Foundation and the system libsqlite3 only: no package dependencies.
import PackageDescription

let package = Package(
    name: "books",
    products: [
        .library(name: "Persistence", targets: ["Persistence"]),
        .library(name: "BookCatalog", targets: ["BookCatalog"]),
        .executable(name: "books", targets: ["books"]),
        .executable(name: "persistence-tool", targets: ["persistence-tool"]),
        .executable(name: "persistence-codegen", targets: ["persistence-codegen"]),
        .plugin(name: "PersistenceCodegenPlugin", targets: ["PersistenceCodegenPlugin"]),
    ],
    traits: [
        // The PostgreSQL store (PersistencePostgreSQLStore over the system libpq): off by
        // default, so that the default build needs nothing but libsqlite3 and zlib.
        .trait(name: "PostgreSQL", description: "The PostgreSQL store, over the system libpq (libpq-dev)")
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // DEFLATE for the compiled model Core Data keeps in its stores (Z_MODELCACHE).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The layers, bottom up; each target sees only the ones below it, so an arrow pointing
        // up does not compile (README, "Architecture").
        // The SQLite C API, wrapped: the only importer of CSQLite.
        .target(name: "PersistenceSQLite", dependencies: ["CSQLite"]),
        // Values, models and their files, predicates and fetch requests: no store, no SQL.
        .target(name: "PersistenceModel"),
        // The store boundary: what a context asks of any store, in the model's terms.
        .target(name: "PersistenceStore", dependencies: ["PersistenceModel"]),
        // The relational core: a store's layout of a model in tables (`RelationalLayout`) and
        // the compilation of a fetch request into SQL over it (predicate, key paths through
        // to-ones, sorts, window, count), exact or left to memory term by term. It writes SQL
        // text and bindings but opens no database: each store runs them on its connection.
        .target(name: "PersistenceRelational", dependencies: ["PersistenceModel", "PersistenceStore"]),
        // The SQLite store: schema mapping, row codecs, SQL, search index, external data,
        // tombstones, migration. With the relational core and the Core Data and PostgreSQL
        // stores, the only targets that write SQL.
        .target(
            name: "PersistenceSQLiteStore",
            dependencies: [
                "PersistenceSQLite", "PersistenceSQLiteFiles", "PersistenceModel", "PersistenceStore", "PersistenceRelational",
            ]),
        // What both SQLite-file stores (their own layout and Core Data's) share about the file
        // and not its tables: the checks of a store's path (StoreFile), the errors of a store
        // file (StoreError), the folder of external binary data, quoted identifiers.
        .target(
            name: "PersistenceSQLiteFiles",
            dependencies: ["PersistenceSQLite", "PersistenceModel", "PersistenceStore"]),
        // The SQLite stores Core Data writes (Z tables, Z_METADATA, Z_MODELCACHE), read and
        // written in Core Data's own layout, with the readers of its binary formats. It shares
        // the file checks and errors of SQLite-file stores, not the SQLite store's layout or SQL.
        // Fetches are compiled by the relational core over Core Data's layout and encodings.
        .target(
            name: "PersistenceCoreDataStore",
            dependencies: [
                "PersistenceSQLite", "PersistenceSQLiteFiles", "PersistenceModel", "PersistenceStore",
                "PersistenceRelational", "CZlib",
            ]),
        // The PostgreSQL client library; built and linked only with the PostgreSQL trait.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // The PostgreSQL store: the only target that writes PostgreSQL's SQL. Its fetches are
        // compiled by the relational core over its layout, in its dialect. Its sources are
        // all under `#if PostgreSQL`, so that without the trait it compiles to nothing.
        .target(
            name: "PersistencePostgreSQLStore",
            dependencies: [
                "PersistenceModel", "PersistenceStore", "PersistenceRelational",
                .target(name: "CLibPQ", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // Contexts, objects, the coordinator, fetching and saving, archives: what a context
        // knows of a store is the PersistentStore protocol, and no store target is in reach.
        .target(name: "PersistenceContext", dependencies: ["PersistenceModel", "PersistenceStore"]),
        // What an app imports: the container, which opens the SQLite store (or, told by its
        // tables, a store Core Data wrote), and every layer an app's code names, re-exported.
        .target(
            name: "Persistence",
            dependencies: [
                "PersistenceModel", "PersistenceStore", "PersistenceContext", "PersistenceSQLiteStore",
                "PersistenceSQLiteFiles", "PersistenceCoreDataStore",
                .target(name: "PersistencePostgreSQLStore", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // What the three executables share about being a command-line tool: declared options read
        // back by typed keys, one parser, help renderer, suggestion and set of exit codes;
        // arguments read as bytes, output written with its errors checked. Apps never see it.
        .target(name: "CommandLineSupport", dependencies: ["PersistenceModel"]),
        .target(
            name: "SeedData",
            path: "SeedData",
            exclude: ["README.md"],
            resources: [.copy("books.json")]
        ),
        .target(
            name: "BookCatalog",
            dependencies: ["Persistence", "SeedData"],
            resources: [.copy("Books.xcdatamodeld")],
            plugins: ["PersistenceCodegenPlugin"]
        ),
        .executableTarget(name: "books", dependencies: ["BookCatalog", "CommandLineSupport"]),
        .executableTarget(
            name: "persistence-tool",
            dependencies: ["Persistence", "PersistenceCodegen", "CommandLineSupport"]),
        .target(name: "PersistenceCodegen", dependencies: ["PersistenceModel"]),
        .executableTarget(
            name: "persistence-codegen",
            dependencies: ["Persistence", "PersistenceCodegen", "CommandLineSupport"]),
        .plugin(
            name: "PersistenceCodegenPlugin",
            capability: .buildTool(),
            dependencies: ["persistence-codegen"]
        ),
        // Runs built tools for the CLI tests of every test target, draining both pipes at once.
        .target(name: "ProcessTestSupport", path: "Tests/ProcessTestSupport"),
        // A context on a store of books obeying commands on stdin: the second process of the
        // tests that edit one book from two processes. Test-only, so not a product.
        .executableTarget(name: "context-editor", dependencies: ["Persistence"], path: "Tests/ContextEditor"),
        // Fixtures the library's test targets share: models built in code, temporary stores,
        // the real model files, runs of the built persistence-tool.
        .target(
            name: "PersistenceTestSupport",
            dependencies: ["Persistence", "PersistenceModel", "PersistenceSQLite", "PersistenceSQLiteStore", "ProcessTestSupport"],
            path: "Tests/PersistenceTestSupport"),
        // One test target a module (Tests/<Module>Tests); `PersistenceTests` holds what is about
        // the package as a whole: its architecture, its public API, a smoke test of the umbrella.
        .testTarget(
            name: "PersistenceTests",
            dependencies: ["Persistence", "PersistenceContext", "ProcessTestSupport"]),
        .testTarget(
            name: "PersistenceModelTests",
            dependencies: [
                "Persistence", "PersistenceModel", "PersistenceTestSupport", "ProcessTestSupport", "persistence-tool",
            ]),
        .testTarget(name: "PersistenceSQLiteTests", dependencies: ["Persistence", "PersistenceSQLite"]),
        .testTarget(
            name: "PersistenceSQLiteStoreTests",
            dependencies: [
                "Persistence", "PersistenceModel", "PersistenceContext", "PersistenceSQLite", "PersistenceSQLiteStore",
                "PersistenceTestSupport", "ProcessTestSupport", "persistence-tool",
            ]),
        .testTarget(
            name: "PersistenceContextTests",
            dependencies: [
                "Persistence", "PersistenceModel", "PersistenceContext", "PersistenceStore", "PersistenceSQLite",
                "PersistenceSQLiteStore", "PersistenceTestSupport", "ProcessTestSupport", "context-editor",
                "persistence-tool",
            ]),
        .testTarget(
            name: "PersistenceToolTests",
            dependencies: [
                "CommandLineSupport", "Persistence", "PersistenceSQLite", "PersistenceTestSupport", "ProcessTestSupport",
                "persistence-tool",
            ]),
        .testTarget(name: "ProcessTestSupportTests", dependencies: ["ProcessTestSupport"]),
        // The contract of PersistentStore, checked against every store through the protocol
        // alone: a new store joins by one line in StoreFactories.swift.
        .testTarget(
            name: "PersistentStoreConformanceTests",
            dependencies: [
                "Persistence", "PersistenceModel", "PersistenceStore", "PersistenceContext", "PersistenceSQLiteStore",
                "PersistenceSQLite", "PersistenceCoreDataStore",
                .target(name: "PersistencePostgreSQLStore", condition: .when(traits: ["PostgreSQL"])),
                // The second process of the stale-save model test.
                "context-editor", "ProcessTestSupport",
            ]),
        .testTarget(
            name: "BookCatalogTests", dependencies: ["BookCatalog", "PersistenceSQLite", "PersistenceSQLiteStore"]),
        .testTarget(
            name: "BooksCLITests",
            dependencies: [
                "books", "BookCatalog", "CommandLineSupport", "Persistence", "PersistenceSQLite", "ProcessTestSupport",
                "context-editor", "persistence-tool",
                .target(name: "PersistencePostgreSQLStore", condition: .when(traits: ["PostgreSQL"])),
            ]),
        .testTarget(
            name: "PersistenceCoreDataStoreTests",
            dependencies: [
                "Persistence", "PersistenceModel", "PersistenceStore", "PersistenceCoreDataStore", "PersistenceSQLite",
            ]),
        .testTarget(name: "CommandLineSupportTests", dependencies: ["CommandLineSupport"]),
        .testTarget(
            name: "FuzzTests",
            dependencies: [
                "books", "BookCatalog", "CommandLineSupport", "Persistence", "PersistenceSQLite",
                "PersistenceCoreDataStore",
            ]),
        .testTarget(
            name: "PersistenceCodegenTests",
            dependencies: ["Persistence", "PersistenceSQLite", "PersistenceCodegen", "ProcessTestSupport"],
            resources: [
                .copy("Models/Moody.xcdatamodel"), .copy("Models/SampleModel.xcdatamodeld"),
                .copy("Golden"),
            ],
            plugins: ["PersistenceCodegenPlugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
