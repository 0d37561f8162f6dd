#if PostgreSQL
import Foundation
import PersistencePostgreSQLStore
import ProcessTestSupport
import Testing

/// Passwords reach libpq from where libpq reads them (`PGPASSWORD`, a password file), never
/// from the command line; a wrong one is one line and exit 1 with nothing created; the
/// URL's other options (TLS among them) pass through to libpq as written.
///
/// Uses the test server's `password_user`, the one role `.ci/postgres-cluster` makes give a
/// password (SCRAM); the others connect without one. Serialized: each test sets that one
/// role's password, and the server refuses two concurrent changes of a role.
@Suite(.serialized, .enabled(if: PostgreSQLTestDatabase.server != nil, "PERSISTENCE_TEST_POSTGRES names no server"))
struct PostgreSQLPasswordTests {
    static let role = "password_user"
    static let password = "correct horse"

    /// A database of its own that `password_user` may create tables in, and the URL that
    /// connects to it as that role.
    static func database() throws -> (PostgreSQLTestDatabase, String) {
        let database = try PostgreSQLTestDatabase()
        let admin = try PGConnection(conninfo: database.url)
        defer { admin.close() }
        try admin.execute(
            "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'password_user') THEN "
                + "CREATE ROLE password_user LOGIN; END IF; END $$")
        try admin.execute("ALTER ROLE password_user PASSWORD '\(password)'")
        try admin.execute("GRANT ALL ON SCHEMA public TO password_user")
        var components = try #require(URLComponents(string: database.url))
        components.queryItems = (components.queryItems ?? []).map {
            $0.name == "user" ? URLQueryItem(name: "user", value: role) : $0
        }
        return (database, try #require(components.string))
    }

    static func tables(in database: PostgreSQLTestDatabase) throws -> Int {
        let admin = try PGConnection(conninfo: database.url)
        defer { admin.close() }
        return Int(try admin.scalar("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") ?? "") ?? -1
    }

    @Test func aWrongPasswordIsOneLineExitOneAndCreatesNothing() throws {
        let (database, url) = try Self.database()
        let sandbox = try BooksSandbox()
        for environment in [["PGPASSWORD": "wrong"], [:]] {
            let run = try sandbox.runBare(["--store", url, "list"], extra: environment)
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run)")
            #expect(run.stderr.contains("password"), "\(run)")
            #expect(!run.stderr.contains("wrong"), "the password is never echoed: \(run)")
            #expect(run.stdout.isEmpty)
        }
        #expect(try Self.tables(in: database) == 0)
    }

    @Test func thePasswordComesFromPGPASSWORDOrAPasswordFile() throws {
        let (database, url) = try Self.database()
        let sandbox = try BooksSandbox()
        let fromEnvironment = try sandbox.runBare(["--store", url, "list", "--limit", "1"], extra: ["PGPASSWORD": Self.password])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment)")
        #expect(try Self.tables(in: database) > 0)

        // ~/.pgpass (HOME is the sandbox), then a file PGPASSFILE names.
        let line = "*:*:*:\(Self.role):\(Self.password)\n"
        let home = sandbox.directory.appendingPathComponent(".pgpass")
        let named = sandbox.directory.appendingPathComponent("passwords")
        for file in [home, named] {
            try line.write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
        let fromHome = try sandbox.runBare(["--store", url, "list", "--limit", "1"])
        #expect(fromHome.status == 0, "\(fromHome)")
        #expect(fromHome.stdout == fromEnvironment.stdout)
        try FileManager.default.removeItem(at: home)
        let fromFile = try sandbox.runBare(["--store", url, "list", "--limit", "1"], extra: ["PGPASSFILE": named.path])
        #expect(fromFile.status == 0, "\(fromFile)")
        #expect(fromFile.stdout == fromEnvironment.stdout)
    }

    @Test func theURLsTLSOptionsReachLibpq() throws {
        let (database, url) = try Self.database()
        defer { withExtendedLifetime(database) {} }
        let sandbox = try BooksSandbox()
        // libpq, not this program, judges them: a value it does not know is its one-line error.
        let run = try sandbox.runBare(["--store", url + "&sslmode=bogus", "list"], extra: ["PGPASSWORD": Self.password])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("sslmode"), "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        // Over a Unix socket libpq uses no TLS, so `require` connects as before.
        let required = try sandbox.runBare(["--store", url + "&sslmode=require", "list", "--limit", "1"], extra: ["PGPASSWORD": Self.password])
        #expect(required.status == 0, "\(required.stderr)")
    }
}
#endif
