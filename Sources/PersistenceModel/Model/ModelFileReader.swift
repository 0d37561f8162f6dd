import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads the `contents` XML of an Xcode `.xcdatamodel` into a model.
///
/// What is read (Xcode's names): `<model>` attributes (kept as `documentAttributes`;
/// `userDefinedModelVersionIdentifier` becomes `versionIdentifier`, empty meaning none);
/// `<entity>`, `<attribute>`, `<relationship>`, `<fetchedProperty>`, `<userInfo>` on the model's
/// entities and properties, `<uniquenessConstraints>`, `<compoundIndexes>`, `<fetchIndex>`,
/// model-level `<fetchRequest>` templates and `<configuration>`s. Date attributes carry their
/// default and range as `defaultDateTimeInterval`, `minDateTimeInterval` and
/// `maxDateTimeInterval` (seconds since 2001-01-01); they land in `defaultValueString`,
/// `minValueString` and `maxValueString`. Xcode's editor has no field for validation
/// predicates and writes none; this library reads and writes its own
/// `<validationPredicate predicate="…" warning="…"/>` children of `<attribute>`.
///
/// What is ignored, never kept: unknown elements and attributes, `<elements>` (diagram
/// positions), a `<userInfo>` of the model itself (a model has none), `syncable`, `inverseEntity` (the inverse always lives on the destination),
/// a configuration's `usedWithCloudKit`, fetch requests' options other than name, entity
/// and predicate, and expression elements of fetch indexes.
///
/// Malformed XML and values that cannot be represented (an unknown `attributeType`, a
/// `minCount` that is not a number) fail the load with a `ModelError` naming the file and
/// line. Everything else (unknown destinations, bad defaults, …) is left for `validate()`.
///
/// Elements nest at most ``maximumDepth`` levels: Xcode writes five at most
/// (`model` › `entity` › `uniquenessConstraints` › `uniquenessConstraint` › `constraint`),
/// and a deeper file is refused at its first element past the limit, so that the tree the
/// reader keeps (and frees) stays shallow whatever the file holds.
package struct ModelFileReader {
    /// The deepest nesting of elements a model file may have, the root `<model>` counting as
    /// one level.
    package static let maximumDepth = 64

    /// The file the XML came from, as errors name it.
    package var file: String

    /// Creates a reader whose errors name `file`.
    package init(file: String) {
        self.file = file
    }

    /// Parses `data` as a model file's `contents`.
    ///
    /// - Throws: `ModelError` naming the file and the line of every problem found.
    package func read(_ data: Data) throws -> ManagedObjectModel {
        let root = try ModelXMLTree.parse(data, file: file)
        var interpreter = Interpreter()
        let model = interpreter.model(from: root)
        if !interpreter.problems.isEmpty {
            throw ModelError(file: file, problems: interpreter.problems)
        }
        return model
    }
}

// MARK: - Interpreting the element tree

/// Turns the element tree into descriptions, collecting every problem with its line.
private struct Interpreter {
    var problems: [ModelProblem] = []

    mutating func model(from root: ModelXMLElement) -> ManagedObjectModel {
        var documentAttributes = root.attributes
        let versionIdentifier = documentAttributes.removeValue(
            forKey: "userDefinedModelVersionIdentifier")
        var entities: [EntityDescription] = []
        var templates: [FetchRequestTemplate] = []
        var configurations: [String: [String]] = [:]
        for child in root.children {
            switch child.name {
            case "entity": entities.append(entity(from: child))
            case "fetchRequest":
                if let template = fetchRequest(from: child) { templates.append(template) }
            case "configuration":
                guard let name = required("name", of: child) else { continue }
                configurations[name, default: []] += child.children
                    .filter { $0.name == "memberEntity" }
                    .compactMap { required("name", of: $0) }
            default: continue  // <elements> (diagram positions) and anything unknown
            }
        }
        return ManagedObjectModel(
            entities: entities, fetchRequestTemplates: templates, configurations: configurations,
            versionIdentifier: (versionIdentifier?.isEmpty ?? true) ? nil : versionIdentifier,
            documentAttributes: documentAttributes)
    }

    mutating func entity(from element: ModelXMLElement) -> EntityDescription {
        let name = required("name", of: element) ?? ""
        var entity = EntityDescription(
            name: name,
            className: element["representedClassName"],
            isAbstract: element.flag("isAbstract"),
            parent: element["parentEntity"],
            versionHashModifier: element["versionHashModifier"],
            renamingIdentifier: element["elementID"],
            spotlightDisplayNameExpression: element["spotlightDisplayNameExpression"],
            codeGenerationType: element["codeGenerationType"])
        for child in element.children {
            switch child.name {
            case "attribute":
                if let attribute = attribute(from: child) { entity.attributes.append(attribute) }
            case "relationship":
                if let relationship = relationship(from: child) {
                    entity.relationships.append(relationship)
                }
            case "fetchedProperty":
                if let property = fetchedProperty(from: child) {
                    entity.fetchedProperties.append(property)
                }
            case "userInfo": entity.userInfo = userInfo(from: child)
            case "uniquenessConstraints":
                entity.uniquenessConstraints += values(
                    in: child, list: "uniquenessConstraint",
                    item: "constraint")
            case "compoundIndexes":
                entity.compoundIndexes += values(in: child, list: "compoundIndex", item: "index")
            case "fetchIndex":
                if let index = fetchIndex(from: child) { entity.fetchIndexes.append(index) }
            default: continue
            }
        }
        return entity
    }

    mutating func attribute(from element: ModelXMLElement) -> AttributeDescription? {
        guard let name = required("name", of: element) else { return nil }
        var type = AttributeType.undefined
        if let typeName = element["attributeType"] {
            guard let known = AttributeType(rawValue: typeName) else {
                let names = AttributeType.allCases.map { "'\($0.rawValue)'" }.joined(
                    separator: ", ")
                problem(
                    element,
                    "attribute '\(name)' has an unknown attributeType '\(typeName)' "
                        + "(expected one of \(names))")
                return nil
            }
            type = known
        }
        // Xcode writes a Date's default and range as time intervals under their own names.
        let isDate = type == .date
        var attribute = AttributeDescription(
            name: name, type: type,
            isOptional: element.flag("optional"),
            isTransient: element.flag("transient"),
            derivationExpression: element.flag("derived") ? element["derivationExpression"] : nil,
            defaultValueString: isDate
                ? element["defaultDateTimeInterval"] ?? element["defaultValueString"]
                : element["defaultValueString"],
            usesScalarValueType: element.flag("usesScalarValueType"),
            minValueString: isDate
                ? element["minDateTimeInterval"] ?? element["minValueString"]
                : element["minValueString"],
            maxValueString: isDate
                ? element["maxDateTimeInterval"] ?? element["maxValueString"]
                : element["maxValueString"],
            regularExpressionString: element["regularExpressionString"],
            allowsExternalBinaryDataStorage: element.flag("allowsExternalBinaryDataStorage"),
            valueTransformerName: element["valueTransformerName"],
            customClassName: element["customClassName"],
            preservesValueInHistoryOnDeletion: element.flag("preserveAfterDeletion"),
            isIndexed: element.flag("indexed"),
            isIndexedBySpotlight: element.flag("spotlightIndexingEnabled"),
            allowsCloudEncryption: element.flag("allowsCloudEncryption"),
            versionHashModifier: element["versionHashModifier"],
            renamingIdentifier: element["elementID"])
        for child in element.children {
            switch child.name {
            case "userInfo": attribute.userInfo = userInfo(from: child)
            case "validationPredicate":
                if let predicate = child["predicate"] {
                    attribute.validationPredicates.append(predicate)
                }
                if let warning = child["warning"] { attribute.validationWarnings.append(warning) }
            default: continue
            }
        }
        return attribute
    }

    mutating func relationship(from element: ModelXMLElement) -> RelationshipDescription? {
        guard let name = required("name", of: element),
            let destination = required(
                "destinationEntity", of: element, for: "relationship '\(name)'")
        else { return nil }
        var deleteRule = DeleteRule.nullify
        if let ruleName = element["deletionRule"] {
            guard let rule = DeleteRule(rawValue: ruleName) else {
                let names = DeleteRule.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                problem(
                    element,
                    "relationship '\(name)' has an unknown deletionRule '\(ruleName)' "
                        + "(expected one of \(names))")
                return nil
            }
            deleteRule = rule
        }
        guard let minCount = count("minCount", of: element, name: name),
            let maxCount = count("maxCount", of: element, name: name)
        else { return nil }
        var relationship = RelationshipDescription(
            name: name, destination: destination, inverse: element["inverseName"],
            deleteRule: deleteRule, isToMany: element.flag("toMany"),
            isOrdered: element.flag("ordered"), minCount: minCount, maxCount: maxCount,
            isOptional: element.flag("optional"), isTransient: element.flag("transient"),
            isIndexed: element.flag("indexed"),
            isIndexedBySpotlight: element.flag("spotlightIndexingEnabled"),
            versionHashModifier: element["versionHashModifier"],
            renamingIdentifier: element["elementID"])
        if let info = element.children.first(where: { $0.name == "userInfo" }) {
            relationship.userInfo = userInfo(from: info)
        }
        return relationship
    }

    mutating func fetchedProperty(from element: ModelXMLElement) -> FetchedPropertyDescription? {
        guard let name = required("name", of: element) else { return nil }
        guard let request = element.children.first(where: { $0.name == "fetchRequest" }) else {
            problem(element, "fetched property '\(name)' has no <fetchRequest>")
            return nil
        }
        guard
            let entityName = required(
                "entity", of: request, for: "the fetch request of fetched property '\(name)'")
        else { return nil }
        return FetchedPropertyDescription(
            name: name, isOptional: element.flag("optional"), entityName: entityName,
            predicateString: request["predicateString"])
    }

    mutating func fetchRequest(from element: ModelXMLElement) -> FetchRequestTemplate? {
        guard let name = required("name", of: element),
            let entityName = required("entity", of: element, for: "fetch request '\(name)'")
        else { return nil }
        return FetchRequestTemplate(
            name: name, entityName: entityName, predicateString: element["predicateString"])
    }

    mutating func fetchIndex(from element: ModelXMLElement) -> FetchIndexDescription? {
        guard let name = required("name", of: element) else { return nil }
        let elements = element.children.filter { $0.name == "fetchIndexElement" }.compactMap {
            child -> FetchIndexDescription.Element? in
            // Expression elements (`expression=`) have no property; they are not supported.
            guard let property = child["property"] else { return nil }
            return FetchIndexDescription.Element(
                property: property, kind: child["type"] ?? "Binary",
                isAscending: child["order"] != "descending")
        }
        return FetchIndexDescription(name: name, elements: elements)
    }

    mutating func userInfo(from element: ModelXMLElement) -> [String: String] {
        var info: [String: String] = [:]
        for entry in element.children where entry.name == "entry" {
            guard let key = required("key", of: entry, for: "userInfo entry") else { continue }
            info[key] = entry["value"] ?? ""
        }
        return info
    }

    /// The `value`s of `<item value=…/>` in each `<list>` child of `element`.
    mutating func values(in element: ModelXMLElement, list: String, item: String) -> [[String]] {
        element.children.filter { $0.name == list }.map { group in
            group.children.filter { $0.name == item }.compactMap {
                required("value", of: $0, for: "<\(item)>")
            }
        }
    }

    mutating func count(_ key: String, of element: ModelXMLElement, name: String) -> Int? {
        guard let text = element[key] else { return 0 }
        guard let value = Int(text), value >= 0 else {
            problem(
                element,
                "relationship '\(name)' has \(key) '\(text)', which is not a "
                    + "whole number of 0 or more")
            return nil
        }
        return value
    }

    mutating func required(
        _ key: String, of element: ModelXMLElement, for what: String? = nil
    ) -> String? {
        if let value = element[key] { return value }
        problem(element, "\(what ?? "<\(element.name)>") has no \(key)")
        return nil
    }

    mutating func problem(_ element: ModelXMLElement, _ message: String) {
        problems.append(ModelProblem(message: "line \(element.line): \(message)"))
    }
}

// MARK: - The element tree

/// One XML element with its attributes, children and the line it starts on.
private struct ModelXMLElement {
    var name: String
    var attributes: [String: String]
    var children: [ModelXMLElement] = []
    var line: Int

    subscript(key: String) -> String? { attributes[key] }

    /// Xcode writes booleans as `YES`/`NO`; absent means false.
    func flag(_ key: String) -> Bool {
        guard let value = attributes[key] else { return false }
        return value == "YES" || value == "true" || value == "1"
    }
}

/// Builds an element tree with `XMLParser`, recording the first error and its line.
private final class ModelXMLTree: NSObject, XMLParserDelegate {
    private var stack: [ModelXMLElement] = []
    private var root: ModelXMLElement?
    private var failure: (line: Int, message: String)?

    /// Parses `data` into its root element, which must be `<model>`.
    ///
    /// `XMLParser.parse()` can return true for a malformed document, so the result is
    /// judged by the errors reported and by the tree itself.
    static func parse(_ data: Data, file: String) throws -> ModelXMLElement {
        // Foundation's XMLParser on Linux traps (it does not throw) when an element or
        // attribute name is not valid UTF-8: such bytes must never reach it.
        if let (line, offset) = firstInvalidUTF8(in: data) {
            throw ModelError(file: file, "line \(line): the file is not valid UTF-8 (byte \(offset + 1))")
        }
        let builder = ModelXMLTree()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let succeeded = parser.parse()
        func fail(_ line: Int, _ message: String) -> ModelError {
            ModelError(file: file, "line \(line): \(message)")
        }
        if let failure = builder.failure { throw fail(failure.line, failure.message) }
        if !succeeded || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw fail(max(parser.lineNumber, 1), builder.explain(code: code))
        }
        if let open = builder.stack.last {
            throw fail(
                max(parser.lineNumber, 1),
                "the document ends before <\(open.name)> (line \(open.line)) is closed")
        }
        guard let root = builder.root else { throw fail(1, "the file has no XML elements") }
        guard root.name == "model" else {
            throw fail(root.line, "the root element is <\(root.name)>, expected <model>")
        }
        return root
    }

    /// The line and byte offset of the first byte sequence that is not UTF-8, if any.
    private static func firstInvalidUTF8(in data: Data) -> (line: Int, offset: Int)? {
        // The standard library's validation is fast; the scalar walk below only finds where.
        if String(validating: data, as: UTF8.self) != nil { return nil }
        var decoder = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        var offset = 0
        var line = 1
        while true {
            switch decoder.parseScalar(from: &bytes) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == 0x0A { line += 1 }
                offset += encoded.count
            case .emptyInput:
                return nil
            case .error:
                return (line, offset)
            }
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        // A model file is a few levels deep; refusing a deep one here keeps the tree (and the
        // recursion that frees nested arrays of elements) within a bound the stack can take.
        guard stack.count < ModelFileReader.maximumDepth else {
            failure = (
                max(parser.lineNumber, 1),
                "<\(elementName)> is nested more than \(ModelFileReader.maximumDepth) elements deep; "
                    + "a model file needs a few levels"
            )
            parser.abortParsing()
            return
        }
        stack.append(
            ModelXMLElement(name: elementName, attributes: attributeDict, line: parser.lineNumber))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        guard failure == nil, let element = stack.popLast() else { return }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard failure == nil else { return }
        failure = (max(parser.lineNumber, 1), explain(code: (parseError as NSError).code))
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {
        self.parser(parser, parseErrorOccurred: validationError)
    }

    /// A sentence for libxml2's error codes, as `XMLParser` reports them.
    private func explain(code: Int) -> String {
        let open = stack.last.map { " (inside <\($0.name)> from line \($0.line))" } ?? ""
        // libxml2's `xmlParserErrors` numbers, which `XMLParser` passes on as error codes.
        switch code {
        case 5:  // XML_ERR_DOCUMENT_END
            if let element = stack.last {
                return "malformed XML: the document ends before <\(element.name)> "
                    + "(line \(element.line)) is closed"
            }
            return root == nil
                ? "malformed XML: the document has no root element"
                : "malformed XML: there is content after the end of the root element"
        case 76, 77: return "malformed XML: a closing tag does not match its opening tag\(open)"
        case 42: return "malformed XML: an attribute is given twice\(open)"
        case 39, 40, 41, 75:
            return "malformed XML: an attribute value is missing or unquoted\(open)"
        case 38: return "malformed XML: '<' inside an attribute value\(open)"
        case 22, 23, 26, 27: return "malformed XML: a broken '&' entity reference\(open)"
        case 65, 68, 73, 74: return "malformed XML: a tag is not well formed\(open)"
        case 4: return "malformed XML: the document is empty"
        case 9: return "malformed XML: an invalid character\(open)"
        default: return "malformed XML (libxml2 error \(code))\(open)"
        }
    }
}
