import Foundation
import Persistence
import PersistenceModel
import PersistenceStore

#if PostgreSQL
import PersistencePostgreSQLStore

extension StoreFactories {
    /// The stores kept on a server: the PostgreSQL store, when the package is built with
    /// its trait and `PERSISTENCE_TEST_POSTGRES` names a server to test against (a libpq
    /// connection string, e.g. `postgresql:///postgres?host=/tmp/pg`; `.ci/run` starts one).
    static var serverFactories: [StoreFactory] {
        guard let conninfo = ProcessInfo.processInfo.environment["PERSISTENCE_TEST_POSTGRES"], !conninfo.isEmpty else {
            return []
        }
        return [postgreSQL(conninfo)]
    }

    /// The PostgreSQL store, each in a schema of its own that the test drops when done.
    static func postgreSQL(_ conninfo: String) -> StoreFactory {
        StoreFactory(
            name: "PostgreSQLStore", keepsObjectsWhenReopened: true,
            make: { model in try makePostgreSQL(model, conninfo: conninfo, options: PostgreSQLStore.Options()) },
            openFile: nil,
            makeTrackingHistory: { model in
                var options = PostgreSQLStore.Options()
                options.tracksHistory = true
                return try makePostgreSQL(model, conninfo: conninfo, options: options)
            })
    }

    private static func makePostgreSQL(
        _ model: ManagedObjectModel, conninfo: String, options: PostgreSQLStore.Options
    ) throws -> StoreUnderTest {
        var options = options
        options.schema = "conformance_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        return try StoreUnderTest(
            open: {
                let store = try PostgreSQLStore(model: model, conninfo: conninfo, options: options)
                return (store, ManagedObjectContext(coordinator: PersistentStoreCoordinator(store: store), classes: [:]))
            },
            removeLocation: { [options] in
                guard let connection = try? PGConnection(conninfo: conninfo) else { return }
                try? connection.execute("DROP SCHEMA IF EXISTS \(pgIdentifier(options.schema)) CASCADE")
                connection.close()
            })
    }
}
#else
extension StoreFactories {
    /// No server store in a build without the PostgreSQL trait.
    static var serverFactories: [StoreFactory] { [] }
}
#endif
