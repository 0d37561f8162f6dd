import Foundation
import Persistence

/// The model of issue #47's app-shaped comparison, built in code as an app without a model
/// file builds it: one entity, `AppBook`, of five attributes.
///
/// `Benchmarks/Models/AppBooks.xcdatamodeld` is the same model as a file; `AppBook+Class.swift`,
/// `AppBook+Properties.swift` and `AppBooks+Model.swift` beside this file are what
/// `persistence-codegen Benchmarks/Models/AppBooks.xcdatamodeld --output …` writes for it,
/// unedited (regenerate them if the model changes). The attributes are listed here in the
/// file's order, which is the order the generated accessors' positions follow.
enum AppModel {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "AppBook", className: "AppBook",
                attributes: [
                    AttributeDescription(name: "canonicalTitle", type: .string),
                    AttributeDescription(name: "color", type: .binaryData),
                    AttributeDescription(name: "price", type: .decimal, isOptional: false, defaultValueString: "0.0"),
                    AttributeDescription(name: "publishDate", type: .date, isOptional: false),
                    AttributeDescription(name: "title", type: .string, isOptional: false),
                ],
                codeGenerationType: "class")
        ])
    }
}
