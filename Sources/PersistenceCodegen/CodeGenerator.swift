import Foundation
import PersistenceModel

/// Writes Swift classes for a model's entities, as Xcode's Codegen does.
///
/// Each entity's `codeGenerationType` decides what is generated:
/// - `class` ("Class Definition"): `Book+Class.swift`, declaring
///   `public final class Book: ManagedObject {}` (a non-final `public class` when the entity
///   has sub-entities; the parent entity's class when it has a parent), and
///   `Book+Properties.swift`;
/// - `category` ("Category/Extension"): only `Book+Properties.swift`; the class is yours;
/// - nothing ("Manual/None"): no file.
///
/// The properties file extends the class with a typed property for each of the entity's own
/// attributes and relationships (see `AttributeCode` and `RelationshipCode` for the types),
/// and a typed key per property (`Book.title`, a `PropertyKey<Book, String>`) for
/// predicates and sort keys; `context.fetch(Book.self, where: Book.title == "x")` is the
/// typed fetch. The topmost generated class of each hierarchy also gets a
/// `PropertyKeyPathNaming` table of its own and its generated subclasses' key paths, so that
/// `FetchDescriptor<Book>(predicate: #Predicate { $0.title == "x" })` runs in a store. A
/// `<Model>+Model.swift` file lists the classes, to register with
/// `PersistentContainer(model:storeURL:classes:)`.
///
/// The output depends only on the model: the same model gives the same bytes, entities in
/// name order, properties in the model's order.
public struct CodeGenerator: Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// The model's name, for headers and the classes enum: `Books` for `Books.xcdatamodeld`.
    public let modelName: String
    /// Whether an entity whose Codegen is Manual/None (none set, as in most real models) gets
    /// a class too, as for "Class Definition": what `model codegen --all` asks.
    public var generatesManualEntities = false

    /// Creates a generator for `model`, called `modelName` in the files it writes.
    public init(model: ManagedObjectModel, modelName: String) {
        self.model = model
        self.modelName = modelName
    }

    /// Reads the model file at `url` (a `.xcdatamodeld` bundle's current version, or the
    /// given `version`; a `.xcdatamodel`; a `contents` file) and names it after the file.
    ///
    /// - Throws: what `ManagedObjectModel(contentsOf:version:)` throws.
    public init(contentsOf url: URL, version: String? = nil) throws {
        self.init(
            model: try ManagedObjectModel(contentsOf: url, version: version),
            modelName: Self.modelName(for: url))
    }

    /// The name of the model at `url`: the bundle's or version's name without its
    /// extension, or for a `contents` file, its directory's.
    public static func modelName(for url: URL) -> String {
        var url = url.standardizedFileURL
        if url.lastPathComponent == "contents" { url.deleteLastPathComponent() }
        if url.pathExtension == "xcdatamodel",
            url.deletingLastPathComponent().pathExtension == "xcdatamodeld"
        {
            url.deleteLastPathComponent()
        }
        return url.deletingPathExtension().lastPathComponent
    }

    /// The name of the enum that lists the model's classes: `BooksModel`, `SampleModel`.
    public var classesTypeName: String {
        let base = SwiftName.typeName(modelName)
        return base.hasSuffix("Model") ? base : base + "Model"
    }

    // MARK: - Output

    /// The files for the model, in a fixed order: per entity (by name) its class file then
    /// its properties file, then the classes file; empty when no entity is generated.
    ///
    /// - Throws: `CodegenError` for an unknown Codegen setting, a property name Swift cannot
    ///   declare, an Undefined attribute, or two entities with one class.
    public func files() throws -> [GeneratedFile] {
        try sections().map { section in
            GeneratedFile(
                name: section.fileName,
                contents: header(section.fileName) + "\n" + imports + "\n" + section.body)
        }
    }

    /// All the files' code in one file, named `<Model>+Generated.swift` unless `name` says
    /// otherwise: for the build plugin, whose outputs must be known before the model is
    /// read. When no entity is generated the file holds only its header and a comment
    /// saying so.
    ///
    /// - Throws: as `files()`.
    public func singleFile(named name: String? = nil) throws -> GeneratedFile {
        let name = name ?? "\(SwiftName.typeName(modelName))+Generated.swift"
        var text = header(name) + "\n" + imports
        let sections = try sections()
        for section in sections {
            text += "\n// MARK: - \(section.fileName)\n\n" + section.body
        }
        if sections.isEmpty {
            text += "\n// No entity of the model has Codegen \"Class Definition\" or "
                + "\"Category/Extension\".\n"
        }
        return GeneratedFile(name: name, contents: text)
    }

    // MARK: - Internals

    /// One generated file's name and the code after its imports.
    struct Section {
        var fileName: String
        var body: String
    }

    /// Xcode's Codegen settings.
    enum Mode: String {
        case classDefinition = "class"
        case category = "category"
    }

    private var imports: String { "import Foundation\nimport Persistence\n" }

    private func header(_ fileName: String) -> String {
        """
        // \(fileName)
        // Generated by persistence-codegen from the model "\(modelName)". Do not edit: change
        // the model and build again, and this file is written anew.

        """
    }

    /// Whether some entity gets code: its Codegen setting says so, or
    /// ``generatesManualEntities``.
    public var generatesAnyEntity: Bool { model.entities.contains { (try? mode(of: $0)) != nil } }

    /// The Codegen setting of `entity`; nil for Manual/None (`.classDefinition` with
    /// ``generatesManualEntities``).
    func mode(of entity: EntityDescription) throws -> Mode? {
        guard let value = entity.codeGenerationType, !value.isEmpty else {
            return generatesManualEntities ? .classDefinition : nil
        }
        guard let mode = Mode(rawValue: value) else {
            throw CodegenError.unknownCodegen(entity: entity.name, value: value)
        }
        return mode
    }

    /// The Swift class of an entity's objects: the represented class name without its
    /// module prefix; the entity's name when it is generated without one; otherwise
    /// `ManagedObject`.
    func className(of entity: EntityDescription) -> String {
        if let name = entity.className, !name.isEmpty, name != "NSManagedObject" {
            return String(name.split(separator: ".").last ?? Substring(name))
        }
        return (try? mode(of: entity)) == nil ? "ManagedObject" : entity.name
    }

    private func className(ofEntityNamed name: String?) -> String {
        guard let name, let entity = model.entity(named: name) else { return "ManagedObject" }
        return className(of: entity)
    }

    private func sections() throws -> [Section] {
        let entities = model.entities.sorted { $0.name < $1.name }
        var generated: [(EntityDescription, Mode)] = []
        var classOwners: [String: String] = [:]
        for entity in entities {
            guard let mode = try mode(of: entity) else { continue }
            let name = className(of: entity)
            if let other = classOwners[name] {
                throw CodegenError.duplicateClass(name: name, entities: [other, entity.name])
            }
            classOwners[name] = entity.name
            generated.append((entity, mode))
        }
        // Properties' positions as the frozen model will have them, for accessors that read
        // and write by position; they go by name if the model does not resolve.
        let schemas = try? EntitySchema.resolve(model.entities)
        var sections: [Section] = []
        for (entity, mode) in generated {
            let name = className(of: entity)
            if mode == .classDefinition {
                sections.append(Section(fileName: "\(name)+Class.swift", body: classBody(entity)))
            }
            var body = try propertiesBody(entity, schemas: schemas)
            if let naming = try keyPathNamingBody(entity, generated: generated.map(\.0)) {
                body += "\n" + naming
            }
            sections.append(Section(fileName: "\(name)+Properties.swift", body: body))
        }
        guard !generated.isEmpty else { return [] }
        sections.append(
            Section(
                fileName: "\(SwiftName.typeName(modelName))+Model.swift",
                body: classesBody(generated.map(\.0))))
        return sections
    }

    private func classBody(_ entity: EntityDescription) -> String {
        let name = className(of: entity)
        let subEntities = model.entities.filter { $0.parentEntityName == entity.name }
            .map(\.name).sorted()
        let parent = className(ofEntityNamed: entity.parentEntityName)
        var doc = ["/// An object of the `\(entity.name)` entity."]
        if entity.isAbstract {
            let examples = subEntities.map { "`\($0)`" }.joined(separator: ", ")
            doc = [
                "/// An object of the abstract `\(entity.name)` entity: a context inserts only its",
                "/// sub-entities" + (examples.isEmpty ? "" : " (\(examples))")
                    + ", never a `\(entity.name)` itself.",
            ]
        }
        doc.append("///")
        doc.append("/// Its properties are in `\(name)+Properties.swift`.")
        let kind = subEntities.isEmpty ? "public final class" : "public class"
        return doc.joined(separator: "\n") + "\n\(kind) \(name): \(parent) {}\n"
    }

    private func propertiesBody(_ entity: EntityDescription, schemas: [String: EntitySchema]?) throws -> String {
        let owner = className(of: entity)
        for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
            if let problem = SwiftName.problem(with: name) {
                throw CodegenError.unusableName(entity: entity.name, property: name, reason: problem)
            }
        }
        let schema = schemas?[entity.name]
        let attributes = try entity.attributes.compactMap {
            try AttributeCode($0, entity: entity.name, position: schema?.propertyIndex[$0.name])
        }
        let relationships = entity.relationships.map {
            RelationshipCode(
                relationship: $0, destinationClass: className(ofEntityNamed: $0.destinationEntityName),
                position: schema?.propertyIndex[$0.name])
        }
        var parts: [String] = []
        let keys =
            attributes.map { $0.keyDeclaration(ownerClass: owner) }
            + relationships.map { $0.keyDeclaration(ownerClass: owner) }
        if !keys.isEmpty {
            parts.append(
                "    // MARK: - Keys\n\n"
                    + "    // Typed keys of the properties, for predicates and sort keys.\n"
                    + keys.joined(separator: "\n"))
        }
        if !attributes.isEmpty {
            parts.append(
                "    // MARK: - Attributes\n\n"
                    + attributes.map { $0.declaration(ownerClass: owner) }
                    .joined(separator: "\n\n"))
        }
        if !relationships.isEmpty {
            parts.append(
                "    // MARK: - Relationships\n\n"
                    + relationships.map { $0.declaration() }
                    .joined(separator: "\n\n"))
        }
        let skipped = entity.attributes.filter { $0.type == .objectID }.map { "`\($0.name)`" }
        if !skipped.isEmpty {
            parts.append(
                "    // ObjectID attributes hold no values and have no property: "
                    + skipped.joined(separator: ", ") + ".")
        }
        guard !parts.isEmpty else { return "extension \(owner) {}\n" }
        return "extension \(owner) {\n" + parts.joined(separator: "\n\n") + "\n}\n"
    }

    /// The `PropertyKeyPathNaming` conformance of `entity`'s class, when no ancestor's
    /// generated class declares it (Swift inherits a conformance and refuses a second one):
    /// a table of the key paths of every generated class below it in the hierarchy, each with
    /// its own generated properties and those it inherits from generated ancestors, so that
    /// `#Predicate<Shelf> { $0.label == "x" }` finds `\Shelf.label`. Nil for a class below
    /// a generated one, or with no property.
    private func keyPathNamingBody(_ entity: EntityDescription, generated: [EntityDescription]) throws -> String? {
        let generatedNames = Set(generated.map(\.name))
        func ancestors(of entity: EntityDescription) -> [EntityDescription] {
            var chain: [EntityDescription] = []
            var next = entity.parentEntityName.flatMap { model.entity(named: $0) }
            while let parent = next, !chain.contains(where: { $0.name == parent.name }) {
                chain.append(parent)
                next = parent.parentEntityName.flatMap { model.entity(named: $0) }
            }
            return chain
        }
        guard !ancestors(of: entity).contains(where: { generatedNames.contains($0.name) }) else { return nil }
        let family = generated.filter { $0.name == entity.name || ancestors(of: $0).contains { $0.name == entity.name } }
        var rows: [String] = []
        for member in family {
            let owner = className(of: member)
            let sources = [member] + ancestors(of: member).filter { generatedNames.contains($0.name) }
            for source in sources {
                let attributes = try source.attributes.filter { try AttributeCode($0, entity: source.name) != nil }
                for name in attributes.map(\.name) + source.relationships.map(\.name) {
                    rows.append("            \\\(owner).\(SwiftName.identifier(name)): \"\(name)\",")
                }
            }
        }
        guard !rows.isEmpty else { return nil }
        let name = className(of: entity)
        return """
            extension \(name): PropertyKeyPathNaming {
                /// The property each key path reads, for `#Predicate` and `SortDescriptor` in a
                /// `FetchDescriptor`.
                public static var propertyNamesByKeyPath: [AnyKeyPath: String] {
                    [
            \(rows.joined(separator: "\n"))
                    ]
                }
            }

            """
    }

    private func classesBody(_ entities: [EntityDescription]) -> String {
        let rows = entities.map { "            \"\($0.name)\": \(className(of: $0)).self," }
        return """
            /// The classes of the `\(modelName)` model's entities that have Codegen "Class Definition"
            /// or "Category/Extension", by entity name: pass them (with any hand-written ones) to
            /// `PersistentContainer(model:storeURL:classes:)`.
            public enum \(classesTypeName) {
                /// The class of each generated entity, by entity name.
                public static var classes: [String: ManagedObject.Type] {
                    [
            \(rows.joined(separator: "\n"))
                    ]
                }
            }

            """
    }
}
