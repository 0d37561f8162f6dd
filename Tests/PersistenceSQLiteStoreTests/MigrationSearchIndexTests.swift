import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// The search index is derived data: a migration that rebuilds a table drops its triggers
/// with the old table, and the next open rebuilds the index from the migrated rows.
@Suite struct MigrationSearchIndexTests {
    @Test func searchFindsMigratedRowsByTheirRenamedAndNewlyIndexedAttributes() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") {
                Attribute("name", .string)
                Attribute("canonicalName", .string, derived: "canonical:(name)", indexedBySpotlight: true)
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string, renamingIdentifier: "name")
                Attribute("canonicalTitle", .string, derived: "canonical:(title)", indexedBySpotlight: true)
                Attribute("year", .integer16, default: "0")
            }
        }
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: v1, storeURL: store.url)
            for title in ["Łódź na zawsze", "Cien años de soledad", "Ficciones"] {
                let book = try container.viewContext.insertObject(forEntityName: "Book")
                book["name"] = title
            }
            try container.viewContext.save()
        }
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        var request = FetchRequest(entityName: "Book")
        request.searchText = "lodz"
        #expect(try container.viewContext.fetch(request).map { $0["title"] as? String } == ["Łódź na zawsze"])
        request.searchText = "anos soledad"
        #expect(try container.viewContext.fetch(request).map { $0["title"] as? String } == ["Cien años de soledad"])
        try container.viewContext.checkSearchIndexes()
        // New books are indexed by the rebuilt index's triggers.
        let book = try container.viewContext.insertObject(forEntityName: "Book")
        book["title"] = "Rayuela"
        try container.viewContext.save()
        request.searchText = "rayuela"
        #expect(try container.viewContext.fetch(request).count == 1)
    }
}
