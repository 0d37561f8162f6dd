#if PostgreSQL
import BookCatalog
import Foundation
import Persistence
import ProcessTestSupport
import Testing

/// A catalogue on PostgreSQL that the previous release wrote (model version 1) is migrated
/// by the first `books` command that opens it, inside the transaction that opens it, and
/// lists every book as the same catalogue migrated on SQLite does.
@Suite(.enabled(if: PostgreSQLTestDatabase.server != nil, "PERSISTENCE_TEST_POSTGRES names no server"))
struct PostgreSQLModelUpgradeTests {
    @Test func aVersion1CatalogueOnPostgreSQLMigratesAndListsAsOnSQLite() throws {
        let database = try PostgreSQLTestDatabase()
        let sandbox = try BooksSandbox()
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let bundle = BuiltProduct.repositoryRoot.appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld")
        let v1 = try ManagedObjectModel(contentsOf: bundle, version: "Books")
        try ModelUpgradeTests.fillVersion1(v1, storeURL: sandbox.store)
        try ModelUpgradeTests.fillVersion1(v1.copy(), storeURL: try #require(URL(string: database.url)))

        for command in [["list"], ["list", "--json"], ["list", "--by-month"], ["search", "the"]] {
            let onFile = try sandbox.run(command)
            let onServer = try sandbox.runBare(["--store", database.url] + command)
            #expect(onServer.status == 0, "\(command): \(onServer)")
            #expect(onServer.stdout == onFile.stdout, "\(command)")
            #expect(onServer.stderr == onFile.stderr, "\(command)")
        }
        // Version 2's new attributes and entity are there, and usable.
        let tag = try sandbox.runBare(["--store", database.url, "list", "--where", "rating == nil AND isbn == nil"])
        #expect(tag.status == 0, "\(tag)")
        #expect(tag.stdout == (try sandbox.run(["list"])).stdout)
    }
}
#endif
