import Foundation

/// Writes a model as the `contents` XML of an Xcode `.xcdatamodel`, the way Xcode does.
///
/// Element and attribute names are Xcode's; booleans are written `YES` only when true
/// (`optional="YES"`), except `usesScalarValueType`, which Xcode also writes as `NO` for the
/// types that have a scalar form. Entities are sorted by name; within an entity come the
/// attributes, the relationships and the fetched properties, each sorted by name, then
/// `userInfo`, fetch indexes, compound indexes and uniqueness constraints. A Date
/// attribute's default and range are written as `defaultDateTimeInterval`,
/// `minDateTimeInterval` and `maxDateTimeInterval`. Validation predicates, which Xcode's
/// editor cannot express, are written as this library's own `<validationPredicate>`
/// children only when an attribute has some. Reading the output gives back an equal model.
package struct ModelFileWriter {
    private var lines: [String] = []

    /// The XML for `model`.
    package static func xml(for model: ManagedObjectModel) -> String {
        var writer = ModelFileWriter()
        writer.write(model)
        return writer.lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Elements

    private mutating func write(_ model: ManagedObjectModel) {
        lines.append(#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#)
        var document = model.documentAttributes
        var attributes: [(String, String?)] = []
        let defaults = [
            ("type", "com.apple.IDECoreDataModeler.DataModel"), ("documentVersion", "1.0"),
            ("lastSavedToolsVersion", nil), ("systemVersion", nil),
            ("minimumToolsVersion", "Automatic"), ("sourceLanguage", "Swift"),
        ]
        for (key, fallback) in defaults {
            attributes.append((key, document.removeValue(forKey: key) ?? fallback))
        }
        document.removeValue(forKey: "userDefinedModelVersionIdentifier")
        for key in document.keys.sorted() { attributes.append((key, document[key])) }
        attributes.append(("userDefinedModelVersionIdentifier", model.versionIdentifier ?? ""))
        open("model", attributes, depth: 0)
        for entity in model.entities.sorted(by: { $0.name < $1.name }) { write(entity) }
        for template in model.fetchRequestTemplates.sorted(by: { $0.name < $1.name }) {
            leaf(
                "fetchRequest",
                [
                    ("name", template.name), ("entity", template.entityName),
                    ("predicateString", template.predicateString),
                ], depth: 1)
        }
        let configurations = model.configurations
        for name in configurations.keys.sorted() {
            open("configuration", [("name", name)], depth: 1)
            for member in Set(configurations[name] ?? []).sorted() {
                leaf("memberEntity", [("name", member)], depth: 2)
            }
            close("configuration", depth: 1)
        }
        close("model", depth: 0)
    }

    private mutating func write(_ entity: EntityDescription) {
        let attributes: [(String, String?)] = [
            ("name", entity.name), ("representedClassName", entity.className),
            ("isAbstract", yes(entity.isAbstract)), ("parentEntity", entity.parentEntityName),
            ("elementID", entity.renamingIdentifier),
            ("versionHashModifier", entity.versionHashModifier),
            ("spotlightDisplayNameExpression", entity.spotlightDisplayNameExpression),
            ("syncable", "YES"), ("codeGenerationType", entity.codeGenerationType),
        ]
        let isEmpty =
            entity.attributes.isEmpty && entity.relationships.isEmpty
            && entity.fetchedProperties.isEmpty && entity.userInfo.isEmpty
            && entity.fetchIndexes.isEmpty && entity.compoundIndexes.isEmpty
            && entity.uniquenessConstraints.isEmpty
        if isEmpty {
            leaf("entity", attributes, depth: 1)
            return
        }
        open("entity", attributes, depth: 1)
        for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) { write(attribute) }
        for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
            write(relationship)
        }
        for property in entity.fetchedProperties.sorted(by: { $0.name < $1.name }) {
            open(
                "fetchedProperty",
                [("name", property.name), ("optional", yes(property.isOptional))],
                depth: 2)
            leaf(
                "fetchRequest",
                [
                    ("name", "fetchedPropertyFetchRequest"), ("entity", property.entityName),
                    ("predicateString", property.predicateString),
                ], depth: 3)
            close("fetchedProperty", depth: 2)
        }
        write(userInfo: entity.userInfo, depth: 2)
        for index in entity.fetchIndexes {
            open("fetchIndex", [("name", index.name)], depth: 2)
            for element in index.elements {
                leaf(
                    "fetchIndexElement",
                    [
                        ("property", element.property), ("type", element.kind),
                        ("order", element.isAscending ? "ascending" : "descending"),
                    ], depth: 3)
            }
            close("fetchIndex", depth: 2)
        }
        write(
            groups: entity.compoundIndexes, list: "compoundIndexes", group: "compoundIndex",
            item: "index")
        write(
            groups: entity.uniquenessConstraints, list: "uniquenessConstraints",
            group: "uniquenessConstraint", item: "constraint")
        close("entity", depth: 1)
    }

    private mutating func write(_ attribute: AttributeDescription) {
        let isDate = attribute.type == .date
        let attributes: [(String, String?)] = [
            ("name", attribute.name), ("optional", yes(attribute.isOptional)),
            ("transient", yes(attribute.isTransient)), ("attributeType", attribute.type.rawValue),
            (isDate ? "minDateTimeInterval" : "minValueString", attribute.minValueString),
            (isDate ? "maxDateTimeInterval" : "maxValueString", attribute.maxValueString),
            ("derived", yes(attribute.isDerived)),
            ("derivationExpression", attribute.derivationExpression),
            (
                isDate ? "defaultDateTimeInterval" : "defaultValueString",
                attribute.defaultValueString
            ),
            ("usesScalarValueType", scalarFlag(attribute)),
            ("regularExpressionString", attribute.regularExpressionString),
            ("allowsExternalBinaryDataStorage", yes(attribute.allowsExternalBinaryDataStorage)),
            ("valueTransformerName", attribute.valueTransformerName),
            ("customClassName", attribute.customClassName),
            ("allowsCloudEncryption", yes(attribute.allowsCloudEncryption)),
            ("indexed", yes(attribute.isIndexed)),
            ("spotlightIndexingEnabled", yes(attribute.isIndexedBySpotlight)),
            ("preserveAfterDeletion", yes(attribute.preservesValueInHistoryOnDeletion)),
            ("versionHashModifier", attribute.versionHashModifier),
            ("elementID", attribute.renamingIdentifier),
        ]
        let predicateCount = max(
            attribute.validationPredicates.count, attribute.validationWarnings.count)
        guard predicateCount > 0 || !attribute.userInfo.isEmpty else {
            leaf("attribute", attributes, depth: 2)
            return
        }
        open("attribute", attributes, depth: 2)
        for index in 0..<predicateCount {
            leaf(
                "validationPredicate",
                [
                    (
                        "predicate",
                        attribute.validationPredicates.indices.contains(index)
                            ? attribute.validationPredicates[index] : nil
                    ),
                    (
                        "warning",
                        attribute.validationWarnings.indices.contains(index)
                            ? attribute.validationWarnings[index] : nil
                    ),
                ], depth: 3)
        }
        write(userInfo: attribute.userInfo, depth: 3)
        close("attribute", depth: 2)
    }

    private mutating func write(_ relationship: RelationshipDescription) {
        let isToOne = !relationship.isToMany
        let attributes: [(String, String?)] = [
            ("name", relationship.name), ("optional", yes(relationship.isOptional)),
            ("transient", yes(relationship.isTransient)), ("toMany", yes(relationship.isToMany)),
            ("minCount", relationship.minCount > 0 ? String(relationship.minCount) : nil),
            (
                "maxCount",
                relationship.maxCount > 0
                    ? String(relationship.maxCount)
                    : isToOne ? "1" : nil
            ),
            ("deletionRule", relationship.deleteRule.rawValue),
            ("ordered", yes(relationship.isOrdered)),
            ("destinationEntity", relationship.destinationEntityName),
            ("inverseName", relationship.inverseName),
            (
                "inverseEntity",
                relationship.inverseName == nil ? nil : relationship.destinationEntityName
            ),
            ("indexed", yes(relationship.isIndexed)),
            ("spotlightIndexingEnabled", yes(relationship.isIndexedBySpotlight)),
            ("versionHashModifier", relationship.versionHashModifier),
            ("elementID", relationship.renamingIdentifier),
        ]
        if relationship.userInfo.isEmpty {
            leaf("relationship", attributes, depth: 2)
        } else {
            open("relationship", attributes, depth: 2)
            write(userInfo: relationship.userInfo, depth: 3)
            close("relationship", depth: 2)
        }
    }

    private mutating func write(userInfo: [String: String], depth: Int) {
        guard !userInfo.isEmpty else { return }
        open("userInfo", [], depth: depth)
        for key in userInfo.keys.sorted() {
            leaf("entry", [("key", key), ("value", userInfo[key])], depth: depth + 1)
        }
        close("userInfo", depth: depth)
    }

    private mutating func write(groups: [[String]], list: String, group: String, item: String) {
        guard !groups.isEmpty else { return }
        open(list, [], depth: 2)
        for names in groups {
            open(group, [], depth: 3)
            for name in names { leaf(item, [("value", name)], depth: 4) }
            close(group, depth: 3)
        }
        close(list, depth: 2)
    }

    // MARK: - Text

    /// `YES` when true, nothing when false, as Xcode writes most booleans.
    private func yes(_ flag: Bool) -> String? { flag ? "YES" : nil }

    /// Xcode writes `usesScalarValueType` explicitly for the types that have a scalar form.
    private func scalarFlag(_ attribute: AttributeDescription) -> String? {
        if attribute.usesScalarValueType { return "YES" }
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean, .date, .uuid:
            return "NO"
        default: return nil
        }
    }

    private mutating func open(_ name: String, _ attributes: [(String, String?)], depth: Int) {
        lines.append(tag(name, attributes, depth: depth) + ">")
    }

    private mutating func leaf(_ name: String, _ attributes: [(String, String?)], depth: Int) {
        lines.append(tag(name, attributes, depth: depth) + "/>")
    }

    private mutating func close(_ name: String, depth: Int) {
        lines.append(String(repeating: "    ", count: depth) + "</\(name)>")
    }

    private func tag(_ name: String, _ attributes: [(String, String?)], depth: Int) -> String {
        var text = String(repeating: "    ", count: depth) + "<" + name
        for case (let key, let value?) in attributes {
            text += " \(key)=\"\(Self.escape(value))\""
        }
        return text
    }

    /// Escapes an attribute value: markup characters and the whitespace XML would normalise.
    static func escape(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
