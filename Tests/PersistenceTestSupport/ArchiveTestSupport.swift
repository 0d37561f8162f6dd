import Foundation

import Persistence

/// Archive documents filled with generated values of every attribute type, edge values
/// included, for any model: the input of the export → import → export round trips.
package enum ArchiveDocuments {
    /// A document with `count` objects of every concrete entity of a frozen model.
    ///
    /// Every stored, non-derived attribute gets a value (optional ones are sometimes null);
    /// attributes in a uniqueness constraint get values unique across the whole table.
    /// Relationships are stated on one side only, so that import must fill in inverses: a
    /// to-one round-robin over its destinations (which covers required to-manys on the
    /// other side), a to-many whose inverse is a to-one not at all, and other to-manys with
    /// two destinations from the side whose name sorts first.
    package static func generated(for model: ManagedObjectModel, count: Int = 3) -> JSONValue {
        let schemas = model.schemas.values.filter { !$0.isAbstract }.sorted { $0.name < $1.name }
        func ids(ofHierarchy name: String) -> [String] {
            schemas.filter { $0.name == name || $0.ancestors.contains(name) }
                .flatMap { schema in (0..<count).map { "\(schema.name)-\($0)" } }
        }
        var serial = 0
        var groups: [(String, JSONValue)] = []
        for schema in schemas {
            let unique = Set(schema.uniquenessConstraints.joined())
            var objects: [JSONValue] = []
            for index in 0..<count {
                serial += 1
                var members: [(String, JSONValue)] = [("@id", .string("\(schema.name)-\(index)"))]
                let properties = schema.properties.enumerated().sorted {
                    $0.element.name < $1.element.name
                }
                for (position, property) in properties {
                    switch property {
                    case .attribute(let a):
                        guard a.isStored, !a.isDerived else { continue }
                        if unique.contains(a.name) {
                            members.append(
                                (
                                    a.name,
                                    uniqueValue(
                                        a.type, entity: schema.name, index: index, serial: serial)
                                ))
                        } else if a.isOptional && (index + position) % 4 == 3 {
                            members.append((a.name, .null))
                        } else {
                            members.append((a.name, edgeValue(a.type, index + position)))
                        }
                    case .relationship(let r):
                        guard !r.isTransient else { continue }
                        let destinations = ids(ofHierarchy: r.destinationEntityName)
                        guard !destinations.isEmpty else { continue }
                        let inverse = r.inverseName.flatMap {
                            model.schemas[r.destinationEntityName]?.relationship(named: $0)
                        }
                        let statesThisSide =
                            inverse == nil
                            || (schema.name, r.name) < (
                                r.destinationEntityName, inverse?.name ?? ""
                            )
                        if !r.isToMany {
                            if inverse?.isToMany == false && !statesThisSide { continue }
                            members.append(
                                (r.name, .string(destinations[(serial - 1) % destinations.count])))
                        } else if inverse?.isToMany == true || inverse == nil, statesThisSide {
                            let picked = Array(
                                Set([index % destinations.count, (index + 1) % destinations.count])
                            ).sorted()
                            members.append(
                                (r.name, .array(picked.map { .string(destinations[$0]) })))
                        }
                    }
                }
                objects.append(.object(members))
            }
            groups.append((schema.name, .array(objects)))
        }
        return .object(groups)
    }

    /// The document as text with every `@id` (and every reference to one) replaced by
    /// `Entity#n`, its entity and position: documents that differ only in their `@id`s
    /// give the same text.
    package static func normalized(_ document: JSONValue) -> String {
        guard case .object(let groups) = document else { return document.rendered() }
        var names: [String: String] = [:]
        for (entity, list) in groups {
            guard case .array(let objects) = list else { continue }
            for (index, object) in objects.enumerated() {
                if case .object(let members) = object,
                    case .string(let id)? = members.first(where: { $0.0 == "@id" })?.1
                {
                    names[id] = "\(entity)#\(index)"
                }
            }
        }
        // References are the @id members and relationship values, which are strings naming
        // an @id; attribute strings never name one in these documents.
        func renameAll(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let text): return .string(names[text] ?? text)
            case .array(let items): return .array(items.map(renameAll))
            case .object(let members): return .object(members.map { ($0.0, renameAll($0.1)) })
            default: return value
            }
        }
        return renameAll(document).rendered()
    }

    /// The attribute members of each object, by entity and position, for comparing what was
    /// imported with what is exported.
    package static func attributeValues(_ document: JSONValue, model: ManagedObjectModel) -> [String:
        String]
    {
        var result: [String: String] = [:]
        guard case .object(let groups) = document else { return result }
        for (entity, list) in groups {
            guard case .array(let objects) = list, let schema = model.schemas[entity] else {
                continue
            }
            for (index, object) in objects.enumerated() {
                guard case .object(let members) = object else { continue }
                for (key, value) in members where schema.attribute(named: key) != nil {
                    result["\(entity)#\(index).\(key)"] = value.rendered()
                }
            }
        }
        return result
    }

    // MARK: - Values

    /// Edge values of each type, written as export writes them.
    package static func edgeValue(_ type: AttributeType, _ n: Int) -> JSONValue {
        func pick(_ values: [JSONValue]) -> JSONValue { values[n % values.count] }
        switch type {
        case .integer16: return pick([.number("-32768"), .number("32767"), .number("0")])
        case .integer32:
            return pick([.number("-2147483648"), .number("2147483647"), .number("-1")])
        case .integer64:
            return pick([
                .number("-9223372036854775808"), .number("9223372036854775807"),
                .number("9007199254740993"),
            ])
        case .double:
            return pick([
                .string("inf"), .number("5e-324"), .string("nan"),
                .number("1.7976931348623157e+308"),
                // Not -0.0: SQLite stores a REAL negative zero as 0.0.
                .string("-inf"), .number("0.1"), .number("-2.5e-10"),
            ])
        case .float:
            return pick([
                .number("3.4028235e+38"), .number("1e-45"), .string("-inf"), .number("0.1"),
                .string("nan"),
            ])
        case .decimal:
            return pick([
                .string("12345678901234567890.123456789012345678"),
                .string("-0.00000000000000000000000000000000000001"),
                .string("99999999999999999999999999999999999999"), .string("0"),
            ])
        case .boolean: return pick([.bool(true), .bool(false)])
        case .date:
            return pick([
                .string("1970-01-01T00:00:00Z"), .string("2024-02-29T23:59:59.999999Z"),
                // Microseconds only where a Double of seconds since 1970 holds them.
                .string("1601-01-01T00:00:00.500Z"), .string("-0044-03-15T12:00:00Z"),
                .string("1901-12-13T20:45:52.000001Z"),
            ])
        case .string:
            return pick([
                .string(""), .string("Łódź “cudzysłów” 🎉\n\t\"\\"), .string("\u{1}\u{7F} end"),
            ])
        case .uuid:
            return pick([
                .string("00000000-0000-0000-0000-000000000000"),
                .string("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"),
                .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
            ])
        case .uri:
            return pick([
                .string("https://example.com/a%20b?q=1#frag"), .string("file:///tmp/x"),
                .string("urn:isbn:0451450523"),
            ])
        case .binaryData, .transformable:
            return pick([
                .string(Data(0...255).base64EncodedString()), .string(""), .string("AA=="),
            ])
        case .objectID, .undefined:
            return .null
        }
    }

    /// A value unique across a table, for attributes in uniqueness constraints.
    package static func uniqueValue(_ type: AttributeType, entity: String, index: Int, serial: Int)
        -> JSONValue
    {
        switch type {
        case .integer16, .integer32, .integer64: return .number(String(serial))
        case .double, .float, .decimal: return .number("\(serial).5")
        case .uuid:
            return .string(
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(serial % 256)))
                    .uuidString)
        case .date: return .string("2000-01-01T00:00:\(String(format: "%02d", serial % 60))Z")
        case .boolean: return .bool(serial % 2 == 0)
        default: return .string("\(entity)-\(index) ✓")
        }
    }

    /// Owners, shelves, volumes and loans, with Cascade, Deny and a minimum count.
    package static func libraryModel(minimumShelves: Int = 1) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Owner") {
                Attribute("name", .string)
                Relationship(
                    "shelves", to: "Shelf", inverse: "owner", toMany: true, deleteRule: .cascade,
                    minCount: minimumShelves)
            }
            Entity("Shelf") {
                Attribute("label", .string)
                Relationship("owner", to: "Owner", inverse: "shelves")
                Relationship(
                    "volumes", to: "Volume", inverse: "shelf", toMany: true, deleteRule: .cascade)
            }
            Entity("Volume") {
                Attribute("title", .string)
                Relationship("shelf", to: "Shelf", inverse: "volumes")
                Relationship(
                    "loans", to: "Loan", inverse: "volume", toMany: true, deleteRule: .deny)
            }
            Entity("Loan") {
                Attribute("who", .string)
                Relationship("volume", to: "Volume", inverse: "loans")
            }
        }
    }

    /// The objects of `libraryJSON` with Shelf/p3 on no owner's shelves, so that Owner/p2 has
    /// none: valid with `libraryModel(minimumShelves: 2)`, whose optional minimum allows it.
    package static var libraryJSONWithAnOwnerWithoutShelves: String {
        libraryJSON.replacingOccurrences(of: #"{"@id": "s3", "owner": "o2"}"#, with: #"{"@id": "s3"}"#)
    }

    /// The objects of `libraryContext()`.
    package static let libraryJSON = """
        {"Owner": [{"@id": "o1"}, {"@id": "o2"}],
         "Shelf": [{"@id": "s1", "owner": "o1"}, {"@id": "s2", "owner": "o1"}, {"@id": "s3", "owner": "o2"}],
         "Volume": [{"shelf": "s1"}, {"shelf": "s2"}, {"@id": "v3"}],
         "Loan": [{"who": "Ada", "volume": "v3"}]}
        """
}
