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
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "Persistence", dependencies: ["CSQLite"]),
        // What both executables share about being a command-line tool: declared options read
        // back by typed keys, one parser, help renderer, suggestion and set of exit codes;
        // arguments read as bytes, output written with its errors checked. Apps never see it.
        .target(name: "CommandLineSupport", dependencies: ["Persistence"]),
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
        .target(name: "PersistenceCodegen", dependencies: ["Persistence"]),
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
        .testTarget(
            name: "PersistenceTests", dependencies: ["Persistence", "persistence-tool", "ProcessTestSupport"]),
        .testTarget(name: "BookCatalogTests", dependencies: ["BookCatalog"]),
        .testTarget(
            name: "BooksCLITests",
            dependencies: ["books", "CommandLineSupport", "Persistence", "ProcessTestSupport"]),
        .testTarget(name: "CommandLineSupportTests", dependencies: ["CommandLineSupport"]),
        .testTarget(
            name: "FuzzTests",
            dependencies: ["books", "BookCatalog", "CommandLineSupport", "Persistence"]),
        .testTarget(
            name: "GeneratedModelTests",
            dependencies: ["Persistence", "PersistenceCodegen", "ProcessTestSupport"],
            resources: [
                .copy("Models/Moody.xcdatamodel"), .copy("Models/SampleModel.xcdatamodeld"),
                .copy("Golden"),
            ],
            plugins: ["PersistenceCodegenPlugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
