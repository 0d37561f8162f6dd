import Foundation
import Persistence
import Testing

// The classes the test models' Codegen settings leave to us, and the transformers they name.
// Models/Moody.xcdatamodel: Region (abstract), Continent and Mood are "Class Definition",
// Country is "Category/Extension". Models/SampleModel.xcdatamodeld (current version
// SampleModel): Car and SportCar are "Class Definition", Person is "Category/Extension",
// ExpensiveSportCar is "Manual/None".

/// Category/Extension: the class is ours, its properties are generated.
public final class Country: Region {
    /// Hand-written behaviour beside the generated properties.
    var moodCount: Int { moods.count }
}

/// Category/Extension: the class is ours, its properties are generated.
public final class Person: ManagedObject {
    /// Hand-written behaviour beside the generated properties.
    var fullName: String { [firstName, lastName].compactMap { $0 }.joined(separator: " ") }
}

/// Manual/None: nothing is generated; we write the class and its one property by hand,
/// inheriting the generated `SportCar`.
public final class ExpensiveSportCar: SportCar {
    var isLimitedEdition: Bool {
        get { value(forKey: "isLimitedEdition", default: false) }
        set { self["isLimitedEdition"] = newValue }
    }

    /// Its own key paths, for typed fetches: the generated table (on `Car`) knows only the
    /// generated classes' key paths.
    public override class var additionalPropertyNamesByKeyPath: [AnyKeyPath: String] {
        [\ExpensiveSportCar.isLimitedEdition: "isLimitedEdition", \ExpensiveSportCar.numberPlate: "numberPlate"]
    }
}

/// The custom class of `Car.color`.
public struct Color: Sendable, Hashable {
    var name: String
}

/// `ColorTransformer`: a `Color` as its name in UTF-8.
struct ColorTransformer: ValueTransforming {
    struct NotAColor: Error {}

    func transformedValue(_ value: any Sendable) throws -> Data {
        guard let color = value as? Color else { throw NotAColor() }
        return Data(color.name.utf8)
    }

    func reverseTransformedValue(_ data: Data) throws -> any Sendable {
        Color(name: String(decoding: data, as: UTF8.self))
    }
}

/// `ColorsTransformer`: Moody's colors, a list of names joined by commas.
struct ColorsTransformer: ValueTransforming {
    struct NotColors: Error {}

    func transformedValue(_ value: any Sendable) throws -> Data {
        guard let names = value as? [String] else { throw NotColors() }
        return Data(names.joined(separator: ",").utf8)
    }

    func reverseTransformedValue(_ data: Data) throws -> any Sendable {
        String(decoding: data, as: UTF8.self).split(separator: ",").map(String.init)
    }
}

/// Opens an in-memory store for a test model, with its generated classes and ours.
func openContainer(_ resource: String, classes: [String: ManagedObject.Type]) throws
    -> PersistentContainer
{
    ValueTransformers.register(ColorTransformer(), forName: "ColorTransformer")
    ValueTransformers.register(ColorsTransformer(), forName: "ColorsTransformer")
    let url = try #require(Bundle.module.url(forResource: resource, withExtension: nil))
    let model = try ManagedObjectModel(contentsOf: url)
    return try PersistentContainer(model: model, storeURL: nil, classes: classes)
}
