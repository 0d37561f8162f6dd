#if PostgreSQL
import Foundation
import ProcessTestSupport
import Testing

/// `persistence-tool store migrate` on a Books catalogue on a PostgreSQL server: the steps
/// printed as for a file, a dry run that changes nothing, then the migration in one
/// transaction.
///
/// Runs against the server `PERSISTENCE_TEST_POSTGRES` names (`.ci/run` starts one), in a
/// database of its own.
@Suite(.enabled(if: PostgreSQLTestDatabase.server != nil, "PERSISTENCE_TEST_POSTGRES names no server"))
struct PostgreSQLStoreMigrateCommandTests {
    @Test func aVersion1CatalogueIsMigratedAfterADryRunThatChangesNothing() throws {
        let database = try PostgreSQLTestDatabase()
        let url = database.url
        let bundle = BuiltProduct.repositoryRoot.appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld").path
        let json = Data("""
            {"Author": [{"@id": "a", "name": "Borges"}],
             "Book": [{"@id": "b", "title": "Ficciones", "author": "a", "price": "12.50",
                       "publishDate": "1944-01-01T00:00:00Z", "uuid": "0E4F2C1B-7A55-4B7D-8E0C-3B2E1F6D9A22"}]}
            """.utf8)
        #expect(try Self.tool(["store", "create", url, "--model", bundle, "--version", "Books"]).status == 0)
        #expect(try Self.tool(["store", "import", url, "-", "--model", bundle, "--version", "Books"], input: json).status == 0)

        let dryRun = try Self.tool(["store", "migrate", url, "--model", bundle, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderrText)")
        #expect(dryRun.stdoutText.hasPrefix("Migration from model version 1 to 2:\n"))
        #expect(dryRun.stdoutText.contains("  Book.isbn: new optional attribute; existing objects have no value\n"))
        #expect(dryRun.stdoutText.hasSuffix(
            "Dry run: the data fits model version 4; the migration was rolled back and the store was not changed.\n"))
        let stillVersion1 = try Self.tool(["store", "export", url, "--model", bundle, "--version", "Books"])
        #expect(stillVersion1.status == 0, "the store still opens with version 1: \(stillVersion1.stderrText)")

        let migrate = try Self.tool(["store", "migrate", url, "--model", bundle])
        #expect(migrate.status == 0, "\(migrate.stderrText)")
        #expect(migrate.stdoutText.hasSuffix("No values will be lost.\nMigrated \(url) to model version 4 in one transaction.\n"))
        let again = try Self.tool(["store", "migrate", url, "--model", bundle])
        #expect(again.stdoutText == "\(url) is already at model version 4; nothing to migrate.\n")
        let exported = try Self.tool(["store", "export", url, "--model", bundle])
        #expect(exported.status == 0 && exported.stdoutText.contains("Ficciones"), "\(exported.stderrText)")
    }

    /// Runs the built `persistence-tool` with a plain environment.
    static func tool(_ arguments: [String], input: Data? = nil) throws -> ChildProcessOutput {
        let process = Process()
        process.executableURL = try BuiltProduct.executable(named: "persistence-tool")
        process.arguments = arguments
        process.environment = ["LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        return try ChildProcess.run(process, input: input)
    }
}
#endif
