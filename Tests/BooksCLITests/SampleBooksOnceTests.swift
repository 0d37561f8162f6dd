import Foundation
import Testing

/// `books list` seeds the sample books when it creates the catalogue, and never again.
@Suite struct SampleBooksOnceTests {
    @Test func aCatalogueEmptiedByItsUserIsNotSeededAgainByAListing() throws {
        let sandbox = try BooksSandbox()
        let add = try sandbox.run(["add", "--title", "Mine", "--author", "Me", "--date", "2020-01-02", "--price", "1"])
        #expect(add.status == 0, "\(add)")
        let uuid = add.addedID
        let delete = try sandbox.run(["delete", uuid, "--yes"])
        #expect(delete.status == 0, "\(delete)")
        let list = try sandbox.run(["list", "--json"])
        #expect(list.status == 0, "\(list)")
        #expect(try list.jsonObjects().isEmpty, "the emptied catalogue was seeded again")
        let search = try sandbox.run(["search", "the"])
        #expect(search.status == 0, "\(search)")
        #expect(try StoreAudit(store: sandbox.store).count("Book") == 0)

        // `books seed` stays the explicit way to add them.
        let seed = try sandbox.run(["seed"])
        #expect(seed.stdout == "Seeded 459 books; the catalogue has 459.\n", "\(seed)")
    }

    @Test func aListingThatCreatesTheCatalogueSeedsIt() throws {
        let sandbox = try BooksSandbox()
        #expect(try sandbox.bookCount() == 459)
        #expect(try sandbox.bookCount() == 459)
    }
}
