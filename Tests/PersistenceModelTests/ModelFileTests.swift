import Foundation
import PersistenceTestSupport
import ProcessTestSupport
import Testing

import Persistence

/// Reading, writing and round-tripping Xcode model files, real and written here.
@Suite struct ModelFileTests {
    // MARK: - The real models

    @Test(arguments: ModelFixtures.realModels)
    func realModelLoadsValidatesAndHasTheFilesCounts(_ fixture: ModelFixture) throws {
        let model = try fixture.load()
        try model.validate()
        let xml = try String(contentsOf: fixture.contentsURL, encoding: .utf8)
        let counts = ModelFixtures.elementCounts(in: xml)
        #expect(model.entities.count == counts.entities)
        #expect(model.entities.map(\.attributes.count).reduce(0, +) == counts.attributes)
        #expect(model.entities.map(\.relationships.count).reduce(0, +) == counts.relationships)
        #expect(counts.entities > 0 && counts.attributes > 0 && counts.relationships > 0)
    }

    @Test(arguments: ModelFixtures.realModels)
    func realModelRoundTripsThroughWriting(_ fixture: ModelFixture) throws {
        let model = try fixture.load()
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = directory.appendingPathComponent("Copy.xcdatamodel")
        try model.write(to: written)
        let reread = try ManagedObjectModel(contentsOf: written)
        #expect(reread == model)
        #expect(reread.entityVersionHashesByName == model.entityVersionHashesByName)
        #expect(reread.documentAttributes == model.documentAttributes)
        #expect(reread.xmlContents() == model.xmlContents())
    }

    @Test func bundleListsItsVersionsAndReadsTheCurrentOne() throws {
        let bundle = ModelFixtures.sampleBundle
        #expect(
            try ManagedObjectModel.versionNames(in: bundle)
                == ["SampleModel", "SampleModel2", "SampleModel3"])
        #expect(try ManagedObjectModel.currentVersionName(in: bundle) == "SampleModel")
        let current = try ManagedObjectModel(contentsOf: bundle)
        #expect(current.versionIdentifier == "1")
        #expect(
            try ManagedObjectModel(contentsOf: bundle, version: "SampleModel3").versionIdentifier
                == "3")
        let suffixed = try ManagedObjectModel(
            contentsOf: bundle, version: "SampleModel2.xcdatamodel")
        #expect(suffixed.versionIdentifier == "2")
        let directory = bundle.appendingPathComponent("SampleModel2.xcdatamodel")
        #expect(try ManagedObjectModel(contentsOf: directory) == suffixed)
        #expect(
            try ManagedObjectModel(contentsOf: directory.appendingPathComponent("contents"))
                == suffixed)
    }

    @Test func realModelsKeepEveryDetail() throws {
        let moody = try ManagedObjectModel(contentsOf: ModelFixtures.moody)
        #expect(moody.versionIdentifier == nil)
        #expect(moody.documentAttributes["lastSavedToolsVersion"] == "11542")
        let region = try #require(moody.entity(named: "Region"))
        #expect(region.isAbstract && region.className == "MoodyModel.Region")
        #expect(region.compoundIndexes == [["markedForDeletionDate", "updatedAt"]])
        #expect(region.uniquenessConstraints == [["numericISO3166Code", "uniquenessDummy"]])
        let mood = try #require(moody.entity(named: "Mood"))
        #expect(mood.attribute(named: "colors")?.valueTransformerName == "ColorsTransformer")
        #expect(mood.attribute(named: "remoteIdentifier")?.isIndexed == true)
        #expect(mood.relationship(named: "country")?.maxCount == 1)
        #expect(
            moody.entity(named: "Continent")?.relationship(named: "countries")?.isOptional == false)

        let bundle = ModelFixtures.sampleBundle
        let v1 = try ManagedObjectModel(contentsOf: bundle, version: "SampleModel")
        let color = try #require(v1.entity(named: "Car")?.attribute(named: "color"))
        #expect(color.type == .transformable && color.customClassName == "Color")
        let speed = try #require(v1.entity(named: "Car")?.attribute(named: "currentDrivingSpeed"))
        #expect(speed.isTransient && speed.usesScalarValueType && speed.defaultValue == .integer(0))
        #expect(
            v1.entity(named: "Person")?.attribute(named: "id")?.preservesValueInHistoryOnDeletion
                == true)
        let v2 = try ManagedObjectModel(contentsOf: bundle, version: "SampleModel2")
        #expect(
            v2.entity(named: "Car")?.fetchIndexes == [
                FetchIndexDescription(
                    name: "byMakerAndNumberPlate",
                    elements: [
                        .init(property: "maker"), .init(property: "numberPlate"),
                    ])
            ])
        let v3 = try ManagedObjectModel(contentsOf: bundle, version: "SampleModel3")
        let luxury = try #require(v3.entity(named: "LuxuryCar"))
        #expect(
            luxury.renamingIdentifier == "ExpensiveSportCar"
                && luxury.parentEntityName == "SportCar")
    }

    // MARK: - Every setting, from XML written here

    @Test func everyAttributeSettingIsRead() throws {
        let model = try ModelFixtures.model(
            entities: """
                <entity name="Item" syncable="YES">
                    <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    <attribute name="code" optional="YES" transient="YES" attributeType="String" \
                minValueString="1" maxValueString="8" defaultValueString="AB" \
                regularExpressionString="[A-Z]+" indexed="YES" spotlightIndexingEnabled="YES" \
                allowsCloudEncryption="YES" preserveAfterDeletion="YES" versionHashModifier="v2" \
                elementID="oldCode" syncable="YES" futureXcodeAttribute="ignored">
                        <userInfo><entry key="k" value="v"/></userInfo>
                        <validationPredicate predicate="length &gt; 1" warning="too short"/>
                        <futureElement/>
                    </attribute>
                    <attribute name="color" optional="YES" attributeType="Transformable" \
                valueTransformerName="ColorTransformer" customClassName="Color"/>
                    <attribute name="key" optional="YES" attributeType="String" derived="YES" \
                derivationExpression="canonical:(code)"/>
                    <attribute name="plain" attributeType="Integer 32" derivationExpression="ignored"/>
                    <attribute name="when" attributeType="Date" minDateTimeInterval="-5" \
                maxDateTimeInterval="86400" defaultDateTimeInterval="60" usesScalarValueType="YES"/>
                </entity>
                """)
        let item = try #require(model.entity(named: "Item"))
        let code = try #require(item.attribute(named: "code"))
        #expect(code.isOptional && code.isTransient && code.type == .string)
        #expect(code.minValueString == "1" && code.maxValueString == "8")
        #expect(code.defaultValueString == "AB" && code.regularExpressionString == "[A-Z]+")
        #expect(code.isIndexed && code.isIndexedBySpotlight && code.allowsCloudEncryption)
        #expect(code.preservesValueInHistoryOnDeletion)
        #expect(code.versionHashModifier == "v2" && code.renamingIdentifier == "oldCode")
        #expect(code.userInfo == ["k": "v"])
        #expect(
            code.validationPredicates == ["length > 1"] && code.validationWarnings == ["too short"])
        let when = try #require(item.attribute(named: "when"))
        #expect(!when.isOptional && when.usesScalarValueType)
        #expect(when.minValueString == "-5" && when.maxValueString == "86400")
        #expect(when.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 60)))
        #expect(item.attribute(named: "blob")?.allowsExternalBinaryDataStorage == true)
        let color = try #require(item.attribute(named: "color"))
        #expect(
            color.valueTransformerName == "ColorTransformer" && color.customClassName == "Color")
        #expect(item.attribute(named: "key")?.derivationExpression == "canonical:(code)")
        #expect(item.attribute(named: "plain")?.isDerived == false)
        try ModelFixtures.expectRoundTrip(model)
    }

    @Test func everyRelationshipEntityAndModelSettingIsRead() throws {
        let model = try ModelFixtures.model(
            attributes: #"userDefinedModelVersionIdentifier="7" sourceLanguage="Swift""#,
            entities: """
                <entity name="Shelf" representedClassName="ShelfMO" codeGenerationType="class" \
                versionHashModifier="s2" elementID="Rack" spotlightDisplayNameExpression="name">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="books" optional="YES" toMany="YES" ordered="YES" minCount="1" \
                maxCount="50" deletionRule="Cascade" destinationEntity="Book" inverseName="shelf" \
                inverseEntity="Book" indexed="YES" versionHashModifier="r2" elementID="items">
                        <userInfo><entry key="a" value="b"/></userInfo>
                    </relationship>
                    <relationship name="cache" optional="YES" transient="YES" maxCount="1" \
                deletionRule="No Action" destinationEntity="Book"/>
                    <fetchedProperty name="recent" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Book" predicateString="year &gt; 2000"/>
                    </fetchedProperty>
                    <userInfo><entry key="owner" value="me"/></userInfo>
                    <fetchIndex name="byName">
                        <fetchIndexElement property="name" type="Binary" order="descending"/>
                    </fetchIndex>
                    <compoundIndexes><compoundIndex><index value="name"/></compoundIndex></compoundIndexes>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
                <entity name="Book" isAbstract="YES" parentEntity="Item">
                    <relationship name="shelf" maxCount="1" deletionRule="Deny" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                </entity>
                <entity name="Item"/>
                <fetchRequest name="all" entity="Book" predicateString="TRUEPREDICATE" fetchLimit="5"/>
                <configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Book"/><memberEntity name="Shelf"/></configuration>
                <elements><element name="Book" positionX="1" positionY="2" width="3" height="4"/></elements>
                """)
        #expect(model.versionIdentifier == "7")
        #expect(model.documentAttributes["sourceLanguage"] == "Swift")
        #expect(model.documentAttributes["userDefinedModelVersionIdentifier"] == nil)
        #expect(
            model.fetchRequestTemplates == [
                FetchRequestTemplate(
                    name: "all", entityName: "Book", predicateString: "TRUEPREDICATE")
            ])
        #expect(model.configurations == ["Cloud": ["Book", "Shelf"]])
        let shelf = try #require(model.entity(named: "Shelf"))
        #expect(shelf.className == "ShelfMO" && shelf.codeGenerationType == "class")
        #expect(shelf.versionHashModifier == "s2" && shelf.renamingIdentifier == "Rack")
        #expect(shelf.spotlightDisplayNameExpression == "name" && shelf.userInfo == ["owner": "me"])
        #expect(
            shelf.fetchIndexes == [
                FetchIndexDescription(
                    name: "byName", elements: [.init(property: "name", isAscending: false)])
            ])
        #expect(shelf.compoundIndexes == [["name"]] && shelf.uniquenessConstraints == [["name"]])
        #expect(
            shelf.fetchedProperties == [
                FetchedPropertyDescription(
                    name: "recent", entityName: "Book", predicateString: "year > 2000")
            ])
        let books = try #require(shelf.relationship(named: "books"))
        #expect(books.isOptional && books.isToMany && books.isOrdered && books.isIndexed)
        #expect(books.minCount == 1 && books.maxCount == 50 && books.deleteRule == .cascade)
        #expect(books.destinationEntityName == "Book" && books.inverseName == "shelf")
        #expect(books.versionHashModifier == "r2" && books.renamingIdentifier == "items")
        #expect(books.userInfo == ["a": "b"])
        let cache = try #require(shelf.relationship(named: "cache"))
        #expect(
            cache.isTransient && !cache.isToMany && cache.maxCount == 1
                && cache.deleteRule == .noAction)
        #expect(cache.inverseName == nil)
        let book = try #require(model.entity(named: "Book"))
        #expect(book.isAbstract && book.parentEntityName == "Item")
        #expect(book.relationship(named: "shelf")?.isOptional == false)
        #expect(book.relationship(named: "shelf")?.deleteRule == .deny)
        try ModelFixtures.expectRoundTrip(model)
    }

    @Test func writtenXMLFollowsXcodesLayout() throws {
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Zebra", attributes: [AttributeDescription(name: "a", type: .string)]),
            EntityDescription(
                name: "Apple",
                attributes: [
                    AttributeDescription(
                        name: "z", type: .integer16, isOptional: false, defaultValueString: "1"),
                    AttributeDescription(name: "b", type: .string, isOptional: true),
                ],
                relationships: [RelationshipDescription(name: "a", destination: "Zebra")]),
        ])
        let xml = model.xmlContents()
        let lines = xml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines[0] == #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#)
        #expect(
            lines[1].hasPrefix(
                #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0""#))
        #expect(lines[1].hasSuffix(#"userDefinedModelVersionIdentifier="">"#))
        #expect(lines[2] == #"<entity name="Apple" syncable="YES">"#)
        #expect(lines[3] == #"<attribute name="b" optional="YES" attributeType="String"/>"#)
        #expect(
            lines[4]
                == #"<attribute name="z" attributeType="Integer 16" defaultValueString="1" usesScalarValueType="NO"/>"#
        )
        #expect(
            lines[5]
                == #"<relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Zebra"/>"#
        )
        #expect(lines[7] == #"<entity name="Zebra" syncable="YES">"#)
        #expect(xml.hasSuffix("</model>\n"))
    }

    @Test func specialCharactersSurviveWriting() throws {
        let text = "a < b & \"c\" > 'd'\n\ttab ü"
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "E",
                attributes: [
                    AttributeDescription(
                        name: "s", type: .string, defaultValueString: text, userInfo: ["k": text])
                ])
        ])
        try ModelFixtures.expectRoundTrip(model)
        #expect(model.xmlContents().contains("a &lt; b &amp; &quot;c&quot; &gt; 'd'&#10;&#9;tab ü"))
    }

    @Test func writingReplacesAnEarlierFileAndCreatesParents() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("a/b/New.xcdatamodel")
        try ManagedObjectModel(entities: [EntityDescription(name: "First")]).write(to: target)
        let second = ManagedObjectModel(entities: [EntityDescription(name: "Second")])
        try second.write(to: target)
        #expect(try ManagedObjectModel(contentsOf: target) == second)
        let names = try FileManager.default.contentsOfDirectory(atPath: target.path)
        #expect(names == ["contents"])
        let blocked = target.appendingPathComponent("contents/Inside.xcdatamodel")
        let error = try #require(throws: ModelFileError.self) { try second.write(to: blocked) }
        #expect(error.kind == .unwritable && error.description.hasPrefix("Can't write the model to "))
        #expect(error.path == blocked.appendingPathComponent("contents").path)
    }

    // MARK: - Errors

    @Test func malformedXMLNamesTheFileAndLine() throws {
        let cases: [(String, Int, String)] = [
            (
                "<model>\n<entity name=\"A\">\n<attribute name=\"x\">\n</entity>\n</model>\n", 4,
                "closing tag"
            ),
            (
                "<model>\n<entity name=\"A\">\n\n<attribute name=\"x\"/>\n", 4,
                "ends before <entity> (line 2)"
            ),
            ("<model>\n<entity name=\"A\" name=\"B\"/>\n</model>\n", 2, "given twice"),
            ("<model>\n</model>\n\n<extra/>\n", 4, "after the end"),
            ("<model>\n<entity name=\"A&B\"/>\n</model>\n", 2, "entity reference"),
            ("", 1, "no XML elements"),
            ("<?xml version=\"1.0\"?>\n<plist>\n</plist>\n", 2, "expected <model>"),
        ]
        for (xml, line, fragment) in cases {
            let url = try ModelFixtures.writeContents(xml)
            defer { ModelFixtures.removeContents(url) }
            let error = try #require(throws: ModelError.self) {
                try ManagedObjectModel(contentsOf: url)
            }
            #expect(error.file == url.path)
            #expect(
                error.description.contains("line \(line):"), "\(error) should name line \(line)")
            #expect(error.description.contains(fragment), "\(error) should say '\(fragment)'")
        }
    }

    @Test func unrepresentableValuesFailWithEveryLine() throws {
        let url = try ModelFixtures.writeContents(
            """
            <model>
                <entity name="A">
                    <attribute name="x" attributeType="Strin"/>
                    <relationship name="r" minCount="many" destinationEntity="A"/>
                    <relationship name="s" deletionRule="Explode" destinationEntity="A"/>
                    <relationship name="t"/>
                </entity>
            </model>
            """)
        defer { ModelFixtures.removeContents(url) }
        let error = try #require(throws: ModelError.self) {
            try ManagedObjectModel(contentsOf: url)
        }
        #expect(
            error.problems.map(\.message) == [
                "line 3: attribute 'x' has an unknown attributeType 'Strin' (expected one of "
                    + AttributeType.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                    + ")",
                "line 4: relationship 'r' has minCount 'many', which is not a whole number of 0 or more",
                "line 5: relationship 's' has an unknown deletionRule 'Explode' (expected one of "
                    + "'No Action', 'Nullify', 'Cascade', 'Deny')",
                "line 6: relationship 't' has no destinationEntity",
            ])
    }

    @Test func missingFilesAndVersionsAreFileErrorsNamingThePath() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/Model.xcdatamodel")
        let error = try #require(throws: ModelFileError.self) {
            try ManagedObjectModel(contentsOf: missing)
        }
        #expect(error.kind == .notFound && error.path == missing.path)
        #expect(error.description.contains("/nonexistent/Model.xcdatamodel"))
        let bundle = ModelFixtures.sampleBundle
        let noVersion = try #require(throws: ModelFileError.self) {
            try ManagedObjectModel(contentsOf: bundle, version: "SampleModel9")
        }
        #expect(noVersion.kind == .noSuchVersion)
        #expect(
            noVersion.description.contains("'SampleModel9'")
                && noVersion.description.contains("'SampleModel3'"))
        let notBundle = try #require(throws: ModelFileError.self) {
            try ManagedObjectModel(contentsOf: ModelFixtures.moody, version: "Moody")
        }
        #expect(notBundle.kind == .unreadable)
    }

    @Test func bundleWithoutCurrentVersionUsesItsOnlyVersionOrAsks() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("Two.xcdatamodeld")
        let one = ManagedObjectModel(
            entities: [EntityDescription(name: "One")], versionIdentifier: "1")
        try one.write(to: bundle.appendingPathComponent("Two.xcdatamodel"))
        #expect(try ManagedObjectModel(contentsOf: bundle) == one)
        try one.write(to: bundle.appendingPathComponent("Two 2.xcdatamodel"))
        let error = try #require(throws: ModelFileError.self) {
            try ManagedObjectModel(contentsOf: bundle)
        }
        #expect(error.kind == .unreadable && error.description.contains("'Two', 'Two 2'"))
        try Data("not a plist".utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let broken = try #require(throws: ModelFileError.self) {
            try ManagedObjectModel(contentsOf: bundle)
        }
        #expect(broken.path.hasSuffix(".xccurrentversion"))
    }
}
