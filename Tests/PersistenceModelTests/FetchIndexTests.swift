import Foundation
import PersistenceTestSupport
import Testing

import Persistence
import PersistenceSQLite

/// Fetch indexes as the model file describes them: each element in its order; an R-tree
/// element refused by `model validate`, naming the index.
@Suite struct FetchIndexTests {
    @Test func aDescendingElementIsCreatedDescending() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: SeedRulesModel.model(), storeURL: store.url)
        try container.persistentStoreCoordinator.close()
        let sql = try store.file.scalar("SELECT sql FROM sqlite_master WHERE name = 'Book_byPagesDescending'")
        #expect(sql == .text(#"CREATE INDEX "Book_byPagesDescending" ON "Book" ("pages" DESC, "title")"#))
    }

    @Test func anRTreeIndexIsRefusedNamingTheIndex() throws {
        let url = try ModelFixtures.writeContents(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model>
                <entity name="Place">
                    <attribute name="latitude" optional="YES" attributeType="Double"/>
                    <attribute name="longitude" optional="YES" attributeType="Double"/>
                    <fetchIndex name="byLocation">
                        <fetchIndexElement property="latitude" type="RTree" order="ascending"/>
                        <fetchIndexElement property="longitude" type="RTree" order="ascending"/>
                    </fetchIndex>
                </entity>
            </model>
            """)
        defer { ModelFixtures.removeContents(url) }
        let result = try ToolRun(["model", "validate", url.path])
        #expect(result.status == 65)
        #expect(
            result.stderrLines == [
                "error: Place: fetch index 'byLocation' has latitude of type 'RTree'; only 'Binary' (B-tree) fetch indexes are supported, not R-tree indexes",
                "error: Place: fetch index 'byLocation' has longitude of type 'RTree'; only 'Binary' (B-tree) fetch indexes are supported, not R-tree indexes",
            ])
    }
}
