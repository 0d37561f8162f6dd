import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// An archive that cannot be imported is refused with one short line, however long the
/// values it quotes: strings, numbers, @ids and member names are cut to about 80 characters
/// with `…`, as every other error quotes input; a validation failure is a short line per
/// problem. (A 100,000-character number, string or @id
/// used to come back whole in the message.)
@Suite struct ArchiveErrorExcerptTests {
    static let long = String(repeating: "x", count: 100_000)
    static let digits = String(repeating: "9", count: 100_000)
    static let mood = #""@id":"a","date":"2020-01-01T00:00:00Z""#

    static let documents: [String] = [
        #"{"Mood":[{\#(mood),"latitude":\#(digits)}]}"#,
        #"{"Mood":[{\#(mood),"latitude":"\#(long)"}]}"#,
        #"{"Mood":[{\#(mood),"markedForRemoteDeletion":"\#(long)"}]}"#,
        #"{"Mood":[{\#(mood),"markedForRemoteDeletion":\#(digits)}]}"#,
        #"{"Mood":[{\#(mood),"country":"\#(long)"}]}"#,
        #"{"Continent":[{"@id":"a","numberOfCountries":\#(digits)}]}"#,
        #"{"Continent":[{"@id":"a","numberOfCountries":\#(digits).5}]}"#,
        #"{"Continent":[{"@id":"a","countries":["\#(long)"]}]}"#,
        #"{"Continent":[{"@id":"a","countries":[\#(digits)]}]}"#,
        #"{"Continent":[{"@id":\#(digits)}]}"#,
        #"{"Continent":[{"@id":"a","\#(long)" 1}]}"#,
        #"{"Country":[{"@id":"\#(long)"}]}"#,
    ]

    @Test(arguments: documents.indices)
    func aLongValueIsQuotedInPart(index: Int) throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.moody)
        var options = SQLiteStore.Options()
        options.passesThroughUnregisteredTransformers = true
        let container = try PersistentContainer(
            model: model, storeURL: directory.appendingPathComponent("s.sqlite"), classes: [:], options: options)
        defer { try? container.viewContext.closeStore() }
        let data = Data(Self.documents[index].utf8)
        do {
            _ = try StoreArchive.importJSON(data, into: container.viewContext)
            Issue.record("document \(index) was imported")
        } catch {
            let message = "\(error)"
            // A validation failure lists a line per problem; every other error is one line.
            #expect(message.count < 500, "document \(index): \(message.count) characters: \(message.prefix(300))")
            #expect(error is ValidationError || !message.contains("\n"), "document \(index): \(message.prefix(300))")
        }
    }
}
