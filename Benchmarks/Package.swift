// swift-tools-version:6.1
// Benchmarks for Persistence against hand-written SQLite C code (issue #9). A separate
// package so that the product keeps zero dependencies; CI does not build it.
//
//     swift run -c release --package-path Benchmarks books-bench [--books N] [--only NAME]
//
// With `--traits PostgreSQL` it also runs the workloads against a PostgreSQL store (which
// needs libpq-dev); without it, as by default, it needs no libpq.
import PackageDescription

let package = Package(
    name: "books-benchmarks",
    products: [
        .executable(name: "books-bench", targets: ["books-bench"]),
        .executable(name: "raw-seed", targets: ["raw-seed"]),
        .executable(name: "peak-rss", targets: ["peak-rss"]),
        .executable(name: "plain-seed", targets: ["plain-seed"]),
        .executable(name: "catalog-seed", targets: ["catalog-seed"]),
    ],
    traits: [
        // The PostgreSQL workloads, over the product's PostgreSQL store: its trait, passed on.
        .trait(name: "PostgreSQL", description: "Workloads against a PostgreSQL store (needs libpq-dev)")
    ],
    dependencies: [
        .package(
            name: "books", path: "..",
            traits: [.trait(name: "PostgreSQL", condition: .when(traits: ["PostgreSQL"]))]),
        // The third side of the comparison (issue #27): GRDB's records over the same system SQLite.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The floor: the same work written directly against the SQLite C API.
        // libm for floor(): a release build inlines it, a debug build calls it.
        .target(name: "RawSQLite", linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("m")]),
        // The small C program `books seed --count N` is compared against.
        .executableTarget(name: "raw-seed", dependencies: ["RawSQLite"]),
        // The plainer C program of issue #27: its own schema, lower-casing for its canonical form.
        .executableTarget(name: "plain-seed", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The same work as `books seed --count N` in C (issue #47): the seed row's honest
        // floor, and with --tight the tight one.
        .executableTarget(name: "catalog-seed", linkerSettings: [.linkedLibrary("sqlite3")]),
        // Measures a child's peak resident memory from a process small enough not to
        // mask it (Linux keeps the high-water mark across execve).
        .executableTarget(name: "peak-rss"),
        .executableTarget(
            name: "books-bench",
            dependencies: [
                "RawSQLite",
                .product(name: "Persistence", package: "books"),
                .product(name: "BookCatalog", package: "books"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
