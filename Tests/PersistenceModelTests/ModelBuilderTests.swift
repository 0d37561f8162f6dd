import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// The Swift builder: the same model as the equivalent file, equal hashes.
@Suite struct ModelBuilderTests {
    /// objc.io's Moody model, written with the builder.
    static func moody() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Continent", className: "MoodyModel.Continent", parent: "Region") {
                Attribute("numberOfCountries", .integer64, optional: false, default: "0")
                Relationship(
                    "countries", to: "Country", inverse: "continent", toMany: true, optional: false)
            }
            Entity("Country", className: "MoodyModel.Country", parent: "Region") {
                Relationship("moods", to: "Mood", inverse: "country", toMany: true, optional: false)
                Relationship("continent", to: "Continent", inverse: "countries")
            }
            Entity("Mood", className: "MoodyModel.Mood") {
                Attribute("colors", .transformable, transformer: "ColorsTransformer")
                Attribute("creatorID", .string)
                Attribute("date", .date, optional: false)
                Attribute("latitude", .double)
                Attribute("longitude", .double)
                Attribute("markedForDeletionDate", .date, indexed: true)
                Attribute("markedForRemoteDeletion", .boolean, optional: false, default: "NO")
                Attribute("remoteIdentifier", .string, indexed: true)
                Relationship("country", to: "Country", inverse: "moods")
                CompoundIndex("markedForRemoteDeletion", "markedForDeletionDate", "date")
            }
            Entity("Region", className: "MoodyModel.Region", isAbstract: true) {
                Attribute("markedForDeletionDate", .date)
                Attribute("numberOfMoods", .integer64, optional: false, default: "0")
                Attribute("numericISO3166Code", .integer16, optional: false, default: "0")
                Attribute("uniquenessDummy", .integer16, optional: false, default: "0")
                Attribute("updatedAt", .date, optional: false)
                CompoundIndex("markedForDeletionDate", "updatedAt")
                UniquenessConstraint("numericISO3166Code", "uniquenessDummy")
            }
        }
    }

    @Test func builtMoodyEqualsTheFileWithEqualHashes() throws {
        let file = try ManagedObjectModel(contentsOf: ModelFixtures.moody)
        let built = Self.moody()
        #expect(built == file)
        #expect(built.entityVersionHashesByName == file.entityVersionHashesByName)
        try built.validate()
    }

    @Test func builtSampleModel3EqualsTheFile() throws {
        let built = ManagedObjectModel(versionIdentifier: "3") {
            Entity("Car", className: "Car") {
                Attribute("numberPlate", .string, optional: false)
                Attribute("model", .string)
                Attribute("markedForDeletionAsOf", .date)
                Relationship("previousOwners", to: "Person", inverse: "previousCars", toMany: true)
                Relationship("owner", to: "Person", inverse: "cars")
                Relationship("createdBy", to: "Maker", inverse: "cars")
                UniquenessConstraint("numberPlate")
            }
            Entity(
                "LuxuryCar", className: "LuxuryCar", parent: "SportCar",
                renamingIdentifier: "ExpensiveSportCar"
            ) {
                Attribute("isLimitedEdition", .boolean, default: "NO", usesScalarValueType: true)
            }
            Entity("Maker", className: "Maker") {
                Attribute("name", .string, optional: false)
                Relationship("cars", to: "Car", inverse: "createdBy", toMany: true)
                UniquenessConstraint("name")
            }
            Entity("Person", className: "Person") {
                Attribute("firstName", .string)
                Attribute("lastName", .string)
                Attribute("updatedAt", .date, optional: false)
                Relationship("cars", to: "Car", inverse: "owner", toMany: true)
                Relationship("previousCars", to: "Car", inverse: "previousOwners", toMany: true)
                UniquenessConstraint("firstName", "lastName")
            }
            Entity("SportCar", className: "SportCar", parent: "Car")
        }
        let file = try ManagedObjectModel(
            contentsOf: ModelFixtures.sampleBundle, version: "SampleModel3")
        #expect(built == file)
        #expect(built.entityVersionHashesByName == file.entityVersionHashesByName)
    }

    @Test func builtModelRoundTripsThroughAFile() throws {
        let built = ManagedObjectModel {
            Entity("Book") {
                Attribute("title", .string, optional: false, minimum: "1", regularExpression: ".+")
                    .validated(by: "length < 300", warning: "Title too long")
                Attribute(
                    "canonicalTitle", .string, derived: "canonical:(title)",
                    indexedBySpotlight: true)
                Attribute(
                    "cover", .binaryData, allowsExternalStorage: true,
                    preservesValueOnDeletion: true)
                Relationship(
                    "shelf", to: "Shelf", inverse: "books", deleteRule: .deny, userInfo: ["k": "v"])
                FetchIndex("byTitle", "title")
                UserInfo(["domain": "books"])
            }
            Entity("Shelf", versionHashModifier: "2") {
                Relationship(
                    "books", to: "Book", inverse: "shelf", toMany: true, ordered: true,
                    deleteRule: .cascade, minCount: 1, maxCount: 10)
            }
        }
        try built.validate()
        try ModelFixtures.expectRoundTrip(built)
        let book = try #require(built.entity(named: "Book"))
        #expect(book.attribute(named: "title")?.validationPredicates == ["length < 300"])
        #expect(book.attribute(named: "title")?.validationWarnings == ["Title too long"])
        #expect(book.userInfo == ["domain": "books"])
        #expect(book.fetchIndexes.first?.elements.map(\.property) == ["title"])
    }

    @Test func builderSortsPropertiesAndSupportsControlFlow() {
        let withSubtitle = true
        let model = ManagedObjectModel {
            Entity("Book") {
                Attribute("title", .string)
                if withSubtitle {
                    Attribute("subtitle", .string)
                } else {
                    Attribute("never", .string)
                }
                for index in 1...2 {
                    Attribute("note\(index)", .string)
                }
                Relationship("z", to: "Book", inverse: "a")
                Relationship("a", to: "Book", inverse: "z")
            }
            if !withSubtitle {
                Entity("Never")
            }
        }
        #expect(model.entities.map(\.name) == ["Book"])
        let book = model.entity(named: "Book")
        #expect(book?.attributes.map(\.name) == ["note1", "note2", "subtitle", "title"])
        #expect(book?.relationships.map(\.name) == ["a", "z"])
    }
}
