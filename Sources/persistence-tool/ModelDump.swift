import Foundation
import Persistence

/// A model printed for people (`text()`) or programs (`json()`): entities sorted by name,
/// each with its own attributes and relationships sorted by name.
struct ModelDump {
    let model: ManagedObjectModel

    private var entities: [EntityDescription] {
        model.entities.sorted { $0.name < $1.name }
    }

    // MARK: - Text

    /// One block per entity: a heading line, then one line per property, constraint and
    /// index, indented by two spaces.
    func text() -> String {
        let count = model.entities.count
        var lines = [
            "model: \(count) \(count == 1 ? "entity" : "entities")"
                + (model.versionIdentifier.map { ", version \($0)" } ?? "")
        ]
        for entity in entities {
            lines.append("")
            var heading = (entity.isAbstract ? "abstract entity " : "entity ") + entity.name
            if let parent = entity.parentEntityName { heading += " : \(parent)" }
            if let className = entity.className { heading += " (class \(className))" }
            lines.append(heading)
            lines.append("  version hash: \(hex(entity.versionHash))")
            for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) {
                lines.append(
                    "  attribute \(attribute.name): "
                        + details(of: attribute).joined(separator: ", "))
            }
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
                lines.append(
                    "  relationship \(relationship.name): "
                        + details(of: relationship).joined(separator: ", "))
            }
            for constraint in entity.uniquenessConstraints {
                lines.append("  unique (\(constraint.joined(separator: ", ")))")
            }
            for index in indexes(of: entity) {
                lines.append(
                    "  index " + (index.name.map { "\($0) " } ?? "")
                        + "(\(index.properties.joined(separator: ", ")))")
            }
        }
        // Names come from a model file anyone may have written: control characters in them
        // are shown escaped (`\n`, `\u{1B}`), so that a name can neither drive the terminal
        // nor forge a line of the dump.
        return lines.map(QuotedText.forMessage).joined(separator: "\n")
    }

    private func details(of attribute: AttributeDescription) -> [String] {
        var parts = [attribute.type.rawValue]
        if attribute.isOptional { parts.append("optional") }
        if attribute.isTransient { parts.append("transient") }
        if let expression = attribute.derivationExpression { parts.append("derived \(expression)") }
        if let text = attribute.defaultValueString { parts.append("default \(text)") }
        if let transformer = attribute.valueTransformerName {
            parts.append("transformer \(transformer)")
        }
        if attribute.isIndexedBySpotlight { parts.append("searchable") }
        return parts
    }

    private func details(of relationship: RelationshipDescription) -> [String] {
        var parts = [
            (relationship.isToMany
                ? (relationship.isOrdered ? "ordered to-many " : "to-many ")
                : "to-one ") + relationship.destinationEntityName
        ]
        if relationship.isOptional { parts.append("optional") }
        if relationship.isTransient { parts.append("transient") }
        parts.append(relationship.inverseName.map { "inverse \($0)" } ?? "no inverse")
        parts.append(relationship.deleteRule.rawValue)
        if relationship.isToMany && (relationship.minCount > 0 || relationship.maxCount > 0) {
            parts.append(
                "count \(relationship.minCount)…"
                    + (relationship.maxCount > 0 ? String(relationship.maxCount) : "any"))
        }
        if relationship.isIndexedBySpotlight { parts.append("searchable") }
        return parts
    }

    // MARK: - JSON

    /// The model as the JSON object `model dump --json` documents.
    func json() -> String {
        JSONValue.object([("entities", .array(entities.map(json(for:))))]).rendered()
    }

    private func json(for entity: EntityDescription) -> JSONValue {
        .object([
            ("name", .string(entity.name)),
            ("className", .string(entity.className)),
            ("parent", .string(entity.parentEntityName)),
            ("abstract", .bool(entity.isAbstract)),
            ("versionHash", .string(hex(entity.versionHash))),
            (
                "attributes",
                .array(
                    entity.attributes.sorted { $0.name < $1.name }.map { attribute in
                        .object([
                            ("name", .string(attribute.name)),
                            ("type", .string(attribute.type.rawValue)),
                            ("optional", .bool(attribute.isOptional)),
                            ("transient", .bool(attribute.isTransient)),
                            ("derived", .bool(attribute.isDerived)),
                            ("derivation", .string(attribute.derivationExpression)),
                            ("defaultValue", .string(attribute.defaultValueString)),
                            ("versionHash", .string(hex(attribute.versionHash))),
                        ])
                    })
            ),
            (
                "relationships",
                .array(
                    entity.relationships.sorted { $0.name < $1.name }.map { relationship in
                        .object([
                            ("name", .string(relationship.name)),
                            ("destination", .string(relationship.destinationEntityName)),
                            ("inverse", .string(relationship.inverseName)),
                            ("deleteRule", .string(relationship.deleteRule.rawValue)),
                            ("toMany", .bool(relationship.isToMany)),
                            ("ordered", .bool(relationship.isOrdered)),
                            ("minCount", .int(relationship.minCount)),
                            ("maxCount", .int(relationship.maxCount)),
                            ("optional", .bool(relationship.isOptional)),
                            ("spotlightIndexingEnabled", .bool(relationship.isIndexedBySpotlight)),
                        ])
                    })
            ),
            (
                "uniquenessConstraints",
                .array(entity.uniquenessConstraints.map { .array($0.map { .string($0) }) })
            ),
            (
                "indexes",
                .array(
                    indexes(of: entity).map { index in
                        .object([
                            ("name", .string(index.name)),
                            ("properties", .array(index.properties.map { .string($0) })),
                        ])
                    })
            ),
        ])
    }

    // MARK: - Shared

    /// Every index the store keeps for the entity's own properties: fetch indexes, compound
    /// indexes (unnamed), then single properties marked indexed (unnamed).
    private func indexes(of entity: EntityDescription) -> [(name: String?, properties: [String])] {
        var result: [(name: String?, properties: [String])] = entity.fetchIndexes.map {
            ($0.name, $0.elements.map(\.property))
        }
        result += entity.compoundIndexes.map { (nil, $0) }
        let indexed =
            entity.attributes.filter(\.isIndexed).map(\.name)
            + entity.relationships.filter(\.isIndexed).map(\.name)
        result += indexed.sorted().map { (nil, [$0]) }
        return result
    }

    private func hex(_ data: Data) -> String {
        data.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }
}
