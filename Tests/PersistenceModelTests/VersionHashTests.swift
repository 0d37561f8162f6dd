import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Version hashes: pinned values, the documented encoding, and what does and does not change
/// them.
@Suite struct VersionHashTests {
    private func hex(_ data: Data) -> String { VersionHash.hex(data) }

    private func hexHashes(_ model: ManagedObjectModel) -> [String: String] {
        model.entityVersionHashesByName.mapValues(hex)
    }

    // MARK: - Golden values

    /// Computed once from the documented encoding (and checked against an independent
    /// implementation of it); they must never change, or existing stores stop matching.
    @Test func moodyHashesArePinned() throws {
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.moody)
        #expect(
            hexHashes(model) == [
                "Continent": "eea2a612e84b5d4327d15eef631d894eb276066fea28f17f1b939f32257e8905",
                "Country": "109d307d36146f74cee977239b984ee9d5ae80ad2bb6f96045532a983753c31a",
                "Mood": "ed43f9e303bbe489b2f41a5c89718d7b847b0bab7cda90f885f158cbd2c1da93",
                "Region": "a32b40c363decc788b44ce61e34145775664cbef3122a90e18d7dc08ff04058f",
            ])
        let continent = try #require(model.entity(named: "Continent"))
        #expect(
            hex(continent.attributes[0].versionHash)
                == "0198e16c45aaef15fac75a6051eeb0666c6aed8e377ee4f5e6410800f11ea062")
    }

    @Test func coreDataPlusHashesArePinned() throws {
        let bundle = ModelFixtures.sampleBundle
        let sportCar = "8c09f9b3e8175aaab22dc420fd5e0e558cdc7246ef25e4396bc5dc4b529267a9"
        let luxuryCar = "113454f783fc4599b93324d8612d2bf21953366f1460566800511171afcc077d"
        #expect(
            hexHashes(try ManagedObjectModel(contentsOf: bundle, version: "SampleModel")) == [
                "Car": "3c29f65da32aef5c280981e7c93d8f4cbf7ea774927a32151c770c021eb78ced",
                "ExpensiveSportCar":
                    "ef6365d8ced62d15572a7c294b6190376e48c48c1d806057a2af2c5fd3b3b227",
                "Person": "459e58ea26b2efe57728fd315181853c993ab89ee6636c81f1d664249d116093",
                "SportCar": sportCar,
            ])
        #expect(
            hexHashes(try ManagedObjectModel(contentsOf: bundle, version: "SampleModel2")) == [
                "Car": "c9807d9e9e8e75abffcdc7df1400740e0b5bec206b7213b73f5a22ecbeeb5463",
                "LuxuryCar": luxuryCar,
                "Person": "a9332f21aeb390a23b5122b2b79c53946707673f3653f60048c77f38970cc24f",
                "SportCar": sportCar,
            ])
        #expect(
            hexHashes(try ManagedObjectModel(contentsOf: bundle, version: "SampleModel3")) == [
                "Car": "2c99bfdfa893a6baf51d84c1e9755ecfcec8200e0e05c6bba81a7a1665b1ddc0",
                "LuxuryCar": luxuryCar,
                "Maker": "d4a3643b42ec3b9bbabe9ca7a896ef471020424d6c500a705958348dad32eaba",
                "Person": "bcba6f93200905f4758d0230f1f45d9015163ca2d782d0caba55e92cb3a4205c",
                "SportCar": sportCar,
            ])
    }

    @Test func attributeRecordFollowsTheDocumentedEncoding() {
        var record = VersionHash(tag: "attribute/1")
        let attribute = AttributeDescription(name: "n", type: .string, isOptional: true)
        record.append("n")
        record.append(true)
        record.append(false)
        record.append(false)
        record.append(nil as String?)
        record.append("String")
        record.append(nil as String?)
        let expected: [UInt8] =
            [0, 0, 0, 11] + Array("attribute/1".utf8)
            + [0, 0, 0, 1, 0x6E]  // "n"
            + [0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]  // optional, not transient, not derived
            + [0xFF, 0xFF, 0xFF, 0xFF]  // no derivation
            + [0, 0, 0, 6] + Array("String".utf8)
            + [0xFF, 0xFF, 0xFF, 0xFF]  // no modifier
        #expect(Array(record.record) == expected)
        #expect(record.digest == attribute.versionHash)
        #expect(attribute.versionHash.count == 32)
        var counted = VersionHash(tag: "t")
        counted.append(count: 258)
        #expect(Array(counted.record.suffix(12)) == [0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 1, 2])
    }

    // MARK: - What changes a hash

    private static let base = ManagedObjectModel {
        Entity("Book") {
            Attribute("title", .string, optional: false)
            Attribute("year", .integer16, default: "0")
            Relationship("author", to: "Author", inverse: "books")
            UniquenessConstraint("title", "author")
        }
        Entity("Author") {
            Attribute("name", .string)
            Relationship("books", to: "Book", inverse: "author", toMany: true)
        }
    }

    /// The hashes after `change` is applied to a copy of `base`'s entity `Book`.
    private func hashes(changingBook change: (inout EntityDescription) -> Void) -> [String: Data] {
        let model = Self.base.copy()
        model.modifyEntity(named: "Book", change)
        return model.entityVersionHashesByName
    }

    @Test func orderOfEntitiesPropertiesAndConstraintNamesDoesNotMatter() {
        let shuffled = ManagedObjectModel(
            entities: Self.base.entities.reversed().map { entity in
                var entity = entity
                entity.attributes.reverse()
                entity.relationships.reverse()
                entity.uniquenessConstraints = entity.uniquenessConstraints.map { $0.reversed() }
                    .reversed()
                return entity
            })
        #expect(shuffled.entities.map(\.name) == ["Author", "Book"])
        #expect(shuffled.entity(named: "Book")?.attributes.map(\.name) == ["year", "title"])
        #expect(shuffled.entityVersionHashesByName == Self.base.entityVersionHashesByName)
    }

    @Test func versionHashModifierAloneChangesTheHash() {
        let original = Self.base.entityVersionHashesByName
        let attributeModified = hashes { $0.attributes[0].versionHashModifier = "2" }
        #expect(attributeModified["Book"] != original["Book"])
        #expect(attributeModified["Author"] == original["Author"])
        let entityModified = hashes { $0.versionHashModifier = "2" }
        #expect(entityModified["Book"] != original["Book"])
        #expect(entityModified["Book"] != attributeModified["Book"])
        let relationshipModified = hashes { $0.relationships[0].versionHashModifier = "2" }
        #expect(relationshipModified["Book"] != original["Book"])
        var attribute = AttributeDescription(name: "a", type: .string)
        let before = attribute.versionHash
        attribute.versionHashModifier = "x"
        #expect(attribute.versionHash != before)
    }

    @Test func userInfoAndOtherNonPersistentSettingsDoNotChangeTheHash() {
        let original = Self.base.entityVersionHashesByName
        #expect(hashes { $0.userInfo = ["k": "v"] } == original)
        #expect(hashes { $0.attributes[0].userInfo = ["k": "v"] } == original)
        #expect(hashes { $0.relationships[0].userInfo = ["k": "v"] } == original)
        #expect(
            hashes {
                $0.className = "BookMO"; $0.renamingIdentifier = "Volume"
            } == original)
        #expect(
            hashes {
                $0.fetchIndexes = [
                    FetchIndexDescription(name: "i", elements: [.init(property: "year")])
                ]
            } == original)
        #expect(
            hashes {
                $0.attributes[1].defaultValueString = "1999"; $0.attributes[1].isIndexed = true
            } == original)
        #expect(
            hashes {
                $0.attributes[0].regularExpressionString = ".+";
                $0.attributes[0].maxValueString = "9"
            } == original)
        #expect(hashes { $0.relationships[0].deleteRule = .cascade } == original)
    }

    @Test func persistentSettingsChangeTheHash() {
        let original = Self.base.entityVersionHashesByName["Book"]
        let changes: [(String, (inout EntityDescription) -> Void)] = [
            ("rename", { $0.name = "Volume" }),
            ("parent", { $0.parentEntityName = "Item" }),
            ("abstract", { $0.isAbstract = true }),
            ("optional", { $0.attributes[0].isOptional = true }),
            ("transient", { $0.attributes[1].isTransient = true }),
            ("type", { $0.attributes[1].type = .integer32 }),
            ("derived", { $0.attributes[0].derivationExpression = "uppercase:(title)" }),
            ("destination", { $0.relationships[0].destinationEntityName = "Person" }),
            ("to-many", { $0.relationships[0].isToMany = true }),
            ("ordered", { $0.relationships[0].isOrdered = true }),
            ("constraint", { $0.uniquenessConstraints = [["title"]] }),
            (
                "new attribute",
                { $0.attributes.append(AttributeDescription(name: "isbn", type: .string)) }
            ),
        ]
        var seen: Set<Data> = [original ?? Data()]
        for (label, change) in changes {
            let changed = hashes(changingBook: change)
            let hash = changed["Book"] ?? changed["Volume"] ?? Data()
            #expect(seen.insert(hash).inserted, "changing \(label) should give a new hash")
        }
    }

    @Test func derivationIsHashedInItsNormalForm() {
        let spaced = AttributeDescription(
            name: "c", type: .string, derivationExpression: " canonical:( title ) ")
        let plain = AttributeDescription(
            name: "c", type: .string, derivationExpression: "canonical:(title)")
        #expect(spaced.versionHash == plain.versionHash)
        let other = AttributeDescription(
            name: "c", type: .string, derivationExpression: "lowercase:(title)")
        #expect(other.versionHash != plain.versionHash)
    }
}
