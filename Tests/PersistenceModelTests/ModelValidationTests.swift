import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// `ManagedObjectModel.validate()` and `warnings`: one test per rule.
@Suite struct ModelValidationTests {
    /// The problems `validate()` throws for `model`, as "Entity.property: message" strings.
    private func problems(_ model: ManagedObjectModel) -> [String] {
        do {
            try model.validate()
            return []
        } catch let error as ModelError {
            return error.problems.map(\.description)
        } catch {
            Issue.record("validate() threw \(error), not a ModelError")
            return []
        }
    }

    /// Expects exactly one problem, containing every fragment.
    private func expectProblem(
        _ model: ManagedObjectModel, _ fragments: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let found = problems(model)
        #expect(
            found.count == 1, "expected one problem, got \(found)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                found.first?.contains(fragment) == true, "\(found) lacks '\(fragment)'",
                sourceLocation: sourceLocation)
        }
    }

    /// A model with one entity `E` holding `members`.
    private func entity(@EntityBuilder _ members: () -> [EntityMember]) -> ManagedObjectModel {
        ManagedObjectModel { Entity("E", members) }
    }

    // MARK: - Clean models

    @Test func cleanModelPassesAndAbstractEntityWithoutChildrenIsFine() throws {
        let model = ManagedObjectModel {
            Entity("Author", isAbstract: true) {
                Attribute("name", .string, optional: false, regularExpression: "[A-Z].*")
                Relationship(
                    "books", to: "Book", inverse: "author", toMany: true, minCount: 0, maxCount: 0)
            }
            Entity("Book") {
                Attribute("title", .string, optional: false, minimum: "1", maximum: "200")
                Attribute("price", .decimal, default: "19.99", minimum: "0", maximum: "1000")
                Attribute("canonicalTitle", .string, derived: "canonical:(title)")
                Attribute("authorName", .string, derived: "author.name")
                Relationship("author", to: "Author", inverse: "books")
                UniquenessConstraint("title", "author")
            }
        }
        try model.validate()
        #expect(model.warnings.isEmpty)
    }

    @Test func everyProblemIsListedInOneError() throws {
        let model = ManagedObjectModel {
            Entity("A") {
                Attribute("x", .undefined)
                Relationship("b", to: "Nowhere", inverse: "a")
            }
            Entity("B", parent: "Ghost")
        }
        let error = try #require(throws: ModelError.self) { try model.validate() }
        #expect(
            error.problems.map(\.description) == [
                "A.x: has the type Undefined; choose an attribute type",
                "A.b: names an unknown destination entity 'Nowhere'",
                "B: names an unknown parent entity 'Ghost'",
            ])
        #expect(error.problems[0].entity == "A" && error.problems[0].property == "x")
        #expect(error.description.hasPrefix("The model has 3 problems:\n"))
    }

    // MARK: - Entities and inheritance

    @Test func duplicateEntityNames() {
        let model = ManagedObjectModel(entities: [
            EntityDescription(name: "A"), EntityDescription(name: "A"),
        ])
        expectProblem(model, "A: is defined 2 times")
    }

    @Test func unknownParent() {
        expectProblem(
            ManagedObjectModel { Entity("A", parent: "Nope") },
            "A: names an unknown parent entity 'Nope'")
    }

    @Test func inheritanceCycle() {
        let found = problems(
            ManagedObjectModel {
                Entity("A", parent: "B")
                Entity("B", parent: "A")
            })
        #expect(
            found == [
                "A: is part of an inheritance cycle (A → B → A)",
                "B: is part of an inheritance cycle (B → A → B)",
            ])
        let tail = problems(
            ManagedObjectModel {
                Entity("Leaf", parent: "Loop")
                Entity("Loop", parent: "Loop")
            })
        #expect(
            tail == [
                "Leaf: inherits from an inheritance cycle (Leaf → Loop → Loop)",
                "Loop: is part of an inheritance cycle (Loop → Loop)",
            ])
    }

    @Test func duplicatePropertyNamesIncludingInheritedOnes() {
        let own = ManagedObjectModel(entities: [
            EntityDescription(
                name: "E",
                attributes: [AttributeDescription(name: "x", type: .string)],
                relationships: [RelationshipDescription(name: "x", destination: "E", inverse: "x")])
        ])
        #expect(problems(own).contains("E.x: is declared 2 times in E"))
        let inherited = ManagedObjectModel {
            Entity("Base") { Attribute("name", .string) }
            Entity("Sub", parent: "Base") { Attribute("name", .string) }
        }
        expectProblem(inherited, "Sub.name: is already inherited from Base")
    }

    @Test(arguments: [
        "description", "objectID", "hash", "isDeleted", "managedObjectContext", "entity", "values",
    ])
    func reservedPropertyNames(_ name: String) {
        expectProblem(
            entity { Attribute(name, .string) },
            "E.\(name): collides with ManagedObject's member '\(name)'")
    }

    /// `context` is no member of `NSManagedObject` (nor of `ManagedObject`): Core Data takes a
    /// model with such an attribute, and stores it wrote (CartKit's `CDCart.context`) open.
    @Test func anAttributeNamedContextIsAllowedAsCoreDataAllowsIt() throws {
        let model = entity { Attribute("context", .string) }
        #expect(problems(model).isEmpty)
    }

    // MARK: - Relationships

    @Test func unknownDestination() {
        expectProblem(
            entity { Relationship("r", to: "Nope", inverse: "s") },
            "E.r: names an unknown destination entity 'Nope'")
    }

    @Test func inverseThatDoesNotExist() {
        let model = ManagedObjectModel {
            Entity("A") { Relationship("b", to: "B", inverse: "missing") }
            Entity("B") { Attribute("name", .string) }
        }
        expectProblem(model, "A.b: names an inverse 'missing' that B does not have")
    }

    @Test func inverseThatIsAnAttribute() {
        let model = ManagedObjectModel {
            Entity("A") { Relationship("b", to: "B", inverse: "name") }
            Entity("B") { Attribute("name", .string) }
        }
        expectProblem(model, "A.b: names an inverse 'name' that is an attribute of B")
    }

    @Test func inverseWhoseDestinationIsAnotherEntity() {
        let model = ManagedObjectModel {
            Entity("A") { Relationship("b", to: "B", inverse: "c") }
            Entity("B") { Relationship("c", to: "C", inverse: "b") }
            Entity("C") { Relationship("b", to: "B", inverse: "c") }
        }
        expectProblem(model, "A.b: has the inverse B.c, which points to C, not back to A")
    }

    @Test func inverseThatDoesNotPointBack() {
        let model = ManagedObjectModel {
            Entity("A") {
                Relationship("b", to: "B", inverse: "a")
                Relationship("other", to: "B", inverse: "a")
            }
            Entity("B") { Relationship("a", to: "A", inverse: "other") }
        }
        expectProblem(
            model, "A.b: has the inverse B.a, which names 'other' as its inverse, not 'b'")
        let oneSided = ManagedObjectModel {
            Entity("A") { Relationship("b", to: "B", inverse: "a") }
            Entity("B") { Relationship("a", to: "A") }
        }
        expectProblem(oneSided, "A.b: has the inverse B.a, which has no inverse, not 'b'")
    }

    @Test func inverseOnAnAncestorIsAccepted() throws {
        let model = ManagedObjectModel {
            Entity("Item") { Relationship("shelf", to: "Shelf", inverse: "items") }
            Entity("Book", parent: "Item")
            Entity("Shelf") { Relationship("items", to: "Item", inverse: "shelf", toMany: true) }
            Entity("Box") { Relationship("books", to: "Book", inverse: "shelf", toMany: true) }
        }
        // Box.books names Book.shelf (inherited), which points to Shelf, not Box.
        #expect(
            problems(model) == [
                "Box.books: has the inverse Book.shelf, which points to Shelf, not back to Box"
            ])
    }

    @Test func missingInverseIsOnlyAWarning() throws {
        let model = entity { Relationship("next", to: "E") }
        try model.validate()
        #expect(
            model.warnings.map(\.description) == [
                "E.next: has no inverse; without one, changes on the E side are not reflected here"
            ])
    }

    @Test func orderedToOne() {
        expectProblem(
            entity { Relationship("r", to: "E", inverse: "r", ordered: true) },
            "E.r: is ordered but to-one")
    }

    @Test func minCountAboveMaxCountButZeroMeansUnlimited() throws {
        expectProblem(
            entity {
                Relationship("r", to: "E", inverse: "r", toMany: true, minCount: 5, maxCount: 2)
            },
            "E.r: has minCount 5 greater than maxCount 2")
        try entity {
            Relationship("r", to: "E", inverse: "r", toMany: true, minCount: 5, maxCount: 0)
        }.validate()
    }

    // MARK: - Constraints and indexes

    @Test func constraintsAndIndexesNamingUnknownProperties() {
        let found = problems(
            entity {
                Attribute("a", .string)
                UniquenessConstraint("a", "ghost")
                CompoundIndex("phantom")
                FetchIndex("byShade", "shade")
            })
        #expect(
            found == [
                "E: uniqueness constraint (a, ghost) names an unknown property 'ghost'",
                "E: compound index (phantom) names an unknown property 'phantom'",
                "E: fetch index 'byShade' names an unknown property 'shade'",
            ])
    }

    @Test func constraintsMayNameInheritedProperties() throws {
        try ManagedObjectModel {
            Entity("Base") { Attribute("code", .string) }
            Entity("Sub", parent: "Base") {
                UniquenessConstraint("code"); FetchIndex("byCode", "code")
            }
        }.validate()
    }

    @Test func transientAttributeInAConstraintOrIndex() {
        let found = problems(
            entity {
                Attribute("t", .string, transient: true)
                UniquenessConstraint("t")
                FetchIndex("byT", "t")
            })
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.contains("names 't', which is transient") })
    }

    @Test func toManyRelationshipInAConstraint() {
        expectProblem(
            entity {
                Relationship("many", to: "E", inverse: "many", toMany: true)
                UniquenessConstraint("many")
            }, "names 'many', which is a to-many relationship")
    }

    @Test func indexedTransientProperty() {
        expectProblem(
            entity { Attribute("t", .string, transient: true, indexed: true) },
            "E.t: is indexed but transient")
        expectProblem(
            entity { Relationship("r", to: "E", inverse: "r", transient: true, indexed: true) },
            "E.r: is indexed but transient")
    }

    // MARK: - Derivations

    @Test func derivationThatDoesNotParse() {
        expectProblem(
            entity { Attribute("d", .string, derived: "canonical:title") },
            "E.d: has a derivation that does not parse")
    }

    @Test func derivationNamingAnUnknownKey() {
        expectProblem(
            entity { Attribute("d", .string, derived: "lowercase:(ghost)") },
            "E has no attribute 'ghost'")
        expectProblem(
            entity { Attribute("d", .string, derived: "ghost.name") }, "E has no property 'ghost'")
    }

    @Test func foldingNeedsAStringAttribute() {
        expectProblem(
            entity {
                Attribute("n", .integer32)
                Attribute("d", .string, derived: "uppercase:(n)")
            }, "'n' is Integer 32, not String")
    }

    @Test func countAndSumNeedAToMany() {
        let model = ManagedObjectModel {
            Entity("Order") {
                Relationship("customer", to: "Customer", inverse: "orders")
                Relationship("lines", to: "Line", inverse: "order", toMany: true)
                Attribute("count", .integer64, derived: "customer.@count")
                Attribute("total", .decimal, derived: "lines.@sum.price")
                Attribute("bad", .decimal, derived: "lines.@sum.label")
                Attribute("lineCount", .integer32, derived: "lines.@count")
            }
            Entity("Customer") {
                Relationship("orders", to: "Order", inverse: "customer", toMany: true)
            }
            Entity("Line") {
                Attribute("price", .decimal)
                Attribute("label", .string)
                Relationship("order", to: "Order", inverse: "lines")
            }
        }
        #expect(
            problems(model) == [
                "Order.bad: derives 'lines.@sum.label', but Line has no numeric attribute 'label'",
                "Order.count: derives 'customer.@count', but Order has no to-many relationship 'customer'",
            ])
    }

    @Test func keyPathNeedsToOneSteps() {
        let model = ManagedObjectModel {
            Entity("A") {
                Attribute("name", .string)
                Relationship("bs", to: "B", inverse: "a", toMany: true)
                Attribute("viaMany", .string, derived: "bs.name")
                Attribute("viaAttribute", .string, derived: "name.length")
            }
            Entity("B") {
                Attribute("name", .string)
                Relationship("a", to: "A", inverse: "bs")
                Attribute("aName", .string, derived: "a.name")
            }
        }
        let found = problems(model)
        #expect(found.count == 2)
        #expect(
            found[0].contains("A.viaAttribute") && found[0].contains("'name' is an attribute of A"))
        #expect(
            found[1].contains("A.viaMany")
                && found[1].contains("'bs' is a to-many relationship of A"))
    }

    // MARK: - Values

    @Test(arguments: [
        (AttributeType.integer16, "40000", "outside Integer 16's range"),
        (.integer32, "12.5", "not a whole number"),
        (.decimal, "19,99", "not a decimal number"),
        (.double, "abc", "'abc' is not a number"),
        (.double, "nan", "'nan' is not a number"),
        (.float, "1e39", "outside Float's range"),
        (.boolean, "maybe", "not a Boolean"),
        (.date, "yesterday", "not a date"),
        (.uuid, "1234", "not a UUID"),
        (.uri, "no scheme here", "not an absolute URI"),
        (.binaryData, "AAAA", "can't have a default value"),
    ])
    func defaultThatIsNotOfTheType(_ type: AttributeType, _ text: String, _ reason: String) {
        let model = entity { Attribute("v", type, default: text) }
        expectProblem(
            model, "E.v: has a default value that is not valid for \(type.rawValue)", reason)
        #expect(model.entity(named: "E")?.attribute(named: "v")?.defaultValue == nil)
    }

    @Test func defaultValuesParseToTypedValues() throws {
        func value(_ type: AttributeType, _ text: String) -> AttributeValue? {
            AttributeDescription(name: "v", type: type, defaultValueString: text).defaultValue
        }
        #expect(value(.integer16, "-32768") == .integer(-32768))
        #expect(value(.integer64, "+42") == .integer(42))
        #expect(
            value(.decimal, "19.99")
                == .decimal(Decimal(sign: .plus, exponent: -2, significand: 1999)))
        #expect(value(.double, "-1.5e3") == .double(-1500))
        #expect(value(.double, "inf") == .double(.infinity))
        #expect(value(.double, "-Infinity") == .double(-.infinity))
        #expect(value(.float, "0.1") == .double(Double(Float(0.1))))
        #expect(value(.boolean, "YES") == .bool(true) && value(.boolean, "0") == .bool(false))
        #expect(value(.boolean, "true") == .bool(true) && value(.boolean, "NO") == .bool(false))
        #expect(value(.date, "-978307200") == .date(Date(timeIntervalSince1970: 0)))
        #expect(
            value(.uuid, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
                == .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
        #expect(value(.uri, "https://example.com/a") == .url(URL(string: "https://example.com/a")!))
        #expect(value(.string, "  as is ") == .string("  as is "))
        #expect(AttributeDescription(name: "v", type: .string).defaultValue == nil)
    }

    @Test func minimumAndMaximumMustBeNumbersInOrder() {
        expectProblem(
            entity { Attribute("n", .integer32, minimum: "ten") },
            "E.n: has a minimum 'ten' that is not a whole number")
        expectProblem(
            entity { Attribute("d", .date, maximum: "soon") },
            "E.d: has a maximum 'soon' that is not a number")
        expectProblem(
            entity { Attribute("s", .string, minimum: "-1") }, "E.s: has a minimum length '-1'")
        expectProblem(
            entity { Attribute("b", .boolean, minimum: "0") }, "Boolean attributes have no range")
        expectProblem(
            entity { Attribute("n", .double, minimum: "10", maximum: "2.5") },
            "E.n: has a minimum 10 greater than its maximum 2.5")
        expectProblem(
            entity { Attribute("n", .decimal, default: "5", minimum: "10") },
            "E.n: has a default 5 below its minimum 10")
    }

    @Test func invalidRegularExpression() {
        expectProblem(
            entity { Attribute("s", .string, regularExpression: "[a-") },
            "E.s: has an invalid regular expression '[a-'")
        expectProblem(
            entity { Attribute("n", .integer16, regularExpression: "[0-9]+") },
            "has a regular expression but is Integer 16, not String")
    }

    @Test func validationPredicatesAndWarningsOfUnequalCounts() throws {
        var attribute = AttributeDescription(
            name: "s", type: .string, validationPredicates: ["length > 1", "length < 9"])
        attribute.validationWarnings = ["too short"]
        let model = ManagedObjectModel(entities: [
            EntityDescription(name: "E", attributes: [attribute])
        ])
        expectProblem(model, "E.s: has 2 validation predicates but 1 validation warnings")
        try ModelFixtures.expectRoundTrip(model)
    }

    @Test func undefinedType() {
        expectProblem(entity { Attribute("u", .undefined) }, "E.u: has the type Undefined")
    }

    @Test func unknownEntitiesInTemplatesConfigurationsAndFetchedProperties() {
        let model = ManagedObjectModel(
            entities: [
                EntityDescription(
                    name: "E",
                    fetchedProperties: [
                        FetchedPropertyDescription(
                            name: "f", entityName: "Ghost", predicateString: nil)
                    ])
            ],
            fetchRequestTemplates: [
                FetchRequestTemplate(name: "t", entityName: "Phantom", predicateString: nil)
            ],
            configurations: ["Cloud": ["E", "Spirit"]])
        #expect(
            problems(model) == [
                "E.f: fetches an unknown entity 'Ghost'",
                "fetch request template 't' names an unknown entity 'Phantom'",
                "configuration 'Cloud' names an unknown entity 'Spirit'",
            ])
    }
}
