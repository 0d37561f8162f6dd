import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// A transformable attribute's value is `any Sendable`: typed setters have the compiler check
/// it, untyped ones (`Any`) take only values whose type shows it, and refuse others with an
/// error that names the type and the setter to use.
@Suite struct TransformableSendableTests {
    /// An app's own value: Sendable, Codable, but nothing a value passed as `Any` shows.
    struct Shade: Sendable, Codable, Hashable {
        var name: String
    }

    /// An Item in an in-memory store, with the container that keeps its context alive.
    private func item() throws -> (PersistentContainer, ManagedObject) {
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: nil)
        return (container, try container.viewContext.insertObject(forEntityName: "Item"))
    }

    @Test func anAppValuePassedAsAnyIsRefusedNamingItsTypeAndTheTypedSetter() throws {
        let (container, item) = try item()
        defer { withExtendedLifetime(container) {} }
        try item.setTransformableValue(Shade(name: "kept"), forKey: "payload")
        let untyped: Any = Shade(name: "teal")
        let error = try #require(throws: ObjectAccessError.self) { try item.setValue(untyped, forKey: "payload") }
        #expect(error.description.contains("Item.payload") || error.description.contains("payload"))
        #expect(error.reason.contains("Shade"))
        #expect(error.reason.contains("setTransformableValue(_:forKey:)"))
        #expect(error.reason.contains("TransformableValue"))
        // The refused value changed nothing.
        #expect(item.decodedValue(forKey: "payload", as: Shade.self) == Shade(name: "kept"))
    }

    /// An app type that says it is Sendable in a way Swift can ask at run time.
    struct Tint: TransformableValue, Codable, Hashable {
        var level: Int
    }

    @Test func anAppValueOfATransformableValueTypeIsTakenAsAny() throws {
        let (container, item) = try item()
        defer { withExtendedLifetime(container) {} }
        let untyped: Any = Tint(level: 3)
        try item.setValue(untyped, forKey: "payload")
        #expect(item.value(forKey: "payload") as? Tint == Tint(level: 3))
        item["payload"] = [Tint(level: 1), Tint(level: 2)] as [Any]
        #expect(item.value(forKey: "payload") as? [Tint] == [Tint(level: 1), Tint(level: 2)])
    }

    @Test func theTypedSetterTakesAnAppValueAndASaveEncodesIt() throws {
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: everyTypeModel(), storeURL: store.url).viewContext
            let item = try context.insertObject(forEntityName: "Item")
            try item.setTransformableValue(Shade(name: "teal"), forKey: "payload")
            #expect(item.value(forKey: "payload") as? Shade == Shade(name: "teal"))
            try context.save()
        }
        let context = try PersistentContainer(model: everyTypeModel(), storeURL: store.url).viewContext
        let fetched = try #require(try context.fetch(FetchRequest(entityName: "Item")).first)
        #expect(fetched.decodedValue(forKey: "payload", as: Shade.self) == Shade(name: "teal"))
    }

    /// A value of each plain kind, passed as `Any`.
    private static func plainValue(_ kind: String) -> Any {
        switch kind {
        case "a string": return "teal"
        case "an integer array": return [1, 2, 3]
        case "a mixed dictionary": return ["name": "teal", "sizes": [1, 2], "on": true] as [String: Any]
        case "data": return Data([1, 2])
        default: return Set(["a", "b"])
        }
    }

    @Test(arguments: ["a string", "an integer array", "a mixed dictionary", "data", "a set"])
    func plainValuesPassedAsAnyAreTaken(_ kind: String) throws {
        let (container, item) = try item()
        defer { withExtendedLifetime(container) {} }
        try item.setValue(Self.plainValue(kind), forKey: "payload")
        #expect(item.value(forKey: "payload") != nil, "\(kind)")
    }

    @Test func aMixedArrayIsRebuiltAndStillReadsAsItsElementType() throws {
        let (container, item) = try item()
        defer { withExtendedLifetime(container) {} }
        try item.setValue([1, 2] as [Any], forKey: "payload")
        #expect(item.value(forKey: "payload") as? [Int] == [1, 2])
        try item.setValue(["a": [1, "b"] as [Any]] as [String: Any], forKey: "payload")
        let read = try #require(item.value(forKey: "payload") as? [String: Any])
        #expect((read["a"] as? [Any])?.count == 2)
    }

    @Test func aNonSendableElementInsideACollectionIsRefused() throws {
        final class Mutable { var n = 0 }
        let (container, item) = try item()
        defer { withExtendedLifetime(container) {} }
        let error = try #require(throws: ObjectAccessError.self) {
            try item.setValue(["ok", Mutable()] as [Any], forKey: "payload")
        }
        #expect(error.reason.contains("can't be shown to be Sendable"))
    }

    @Test func theTypedSetterTreatsNilsAsNoValue() throws {
        let (container, item) = try item()
        defer { withExtendedLifetime(container) {} }
        try item.setTransformableValue(Shade(name: "x"), forKey: "payload")
        try item.setTransformableValue(Shade?.none, forKey: "payload")
        #expect(item.value(forKey: "payload") == nil)
        try item.setTransformableValue(Shade(name: "x"), forKey: "payload")
        let boxedNil: any Sendable = Shade?.none as any Sendable
        try item.setTransformableValue(boxedNil, forKey: "payload")
        #expect(item.value(forKey: "payload") == nil)
        // Through the generated setters' path: a positional hint that is wrong.
        item.setTransformableAttribute(Shade(name: "y"), forKey: "payload", at: -1)
        #expect(item.value(forKey: "payload") as? Shade == Shade(name: "y"))
        item.setTransformableAttribute(boxedNil, forKey: "payload", at: 12)
        #expect(item.value(forKey: "payload") == nil)
    }

    @Test func anAttributeValueKeepsItsTransformableThroughTheUntypedSetter() throws {
        let (container, item) = try item()
        defer { withExtendedLifetime(container) {} }
        try item.setValue(AttributeValue.transformable(Shade(name: "undo")), forKey: "payload")
        #expect(item.value(forKey: "payload") as? Shade == Shade(name: "undo"))
    }

    @Test func aBatchRowTakesAnAppValueThroughItsTypedSetterAndRefusesItAsAny() throws {
        let store = TemporaryStore()
        let context = try PersistentContainer(model: everyTypeModel(), storeURL: store.url).viewContext
        var refusal: ObjectAccessError?
        let request = BatchInsertRequest(entityName: "Item", count: 1) { _, row in
            try row.setTransformableValue(Shade(name: "batch"), forKey: "payload")
            do { try row.setValue(Shade(name: "any") as Any, forKey: "payload") } catch let error as ObjectAccessError {
                refusal = error
            }
        }
        try context.save(inserting: [request])
        #expect(refusal?.reason.contains("setTransformableValue(_:forKey:)") == true)
        let fetched = try #require(try context.fetch(FetchRequest(entityName: "Item")).first)
        #expect(fetched.decodedValue(forKey: "payload", as: Shade.self) == Shade(name: "batch"))
    }
}
