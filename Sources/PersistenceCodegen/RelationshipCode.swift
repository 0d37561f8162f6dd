import PersistenceModel

/// How one relationship appears in generated Swift: a to-one as an optional object, an
/// unordered to-many as a `Set`, an ordered one as an array, with Core Data's
/// `addToBooks(_:)` / `removeFromBooks(_:)` accessors for to-manys.
struct RelationshipCode {
    /// The relationship.
    let relationship: RelationshipDescription
    /// The destination's class: its generated or declared class, or `ManagedObject`.
    let destinationClass: String
    /// The relationship's position among its entity's properties, which the getter reads by
    /// (the name is checked there at run time); nil to read by name.
    var position: Int? = nil

    /// The property's declared type: `Author?`, `Set<Book>`, `[Chapter]`.
    var propertyType: String {
        if !relationship.isToMany { return destinationClass + "?" }
        return relationship.isOrdered ? "[\(destinationClass)]" : "Set<\(destinationClass)>"
    }

    /// The property's declaration, and for a to-many its add and remove accessors.
    func declaration() -> String {
        let key = relationship.name
        let name = SwiftName.identifier(key)
        let plain = destinationClass == "ManagedObject"
        var lines = documentation.map { "    /// " + $0 }
        lines.append("    public var \(name): \(propertyType) {")
        let at = position.map { "at: \($0), " } ?? ""
        if !relationship.isToMany {
            let cast = plain ? "" : " as? \(destinationClass)"
            lines.append("        get { object(\(at)forKey: \"\(key)\")\(cast) }")
            lines.append("        set { \(toOneSetterStatement) }")
        } else {
            let objects =
                plain
                ? "objects(\(at)forKey: \"\(key)\")"
                : "objects(\(at)forKey: \"\(key)\").compactMap { $0 as? \(destinationClass) }"
            if relationship.isOrdered {
                lines.append("        get { \(objects) }")
                lines.append("        set { self[\"\(key)\"] = newValue }")
            } else {
                lines.append("        get { Set(\(objects)) }")
                lines.append("        set { self[\"\(key)\"] = Array(newValue) }")
            }
        }
        lines.append("    }")
        guard relationship.isToMany else { return lines.joined(separator: "\n") }
        let suffix = SwiftName.capitalized(key)
        let position = relationship.isOrdered ? "at the end of" : "to"
        lines += [
            "",
            "    /// Adds `value` \(position) `\(key)`, keeping the inverse in step.",
            "    public func addTo\(suffix)(_ value: \(destinationClass)) {",
            "        addObject(value, forKey: \"\(key)\")",
            "    }",
            "",
            "    /// Removes `value` from `\(key)`, keeping the inverse in step.",
            "    public func removeFrom\(suffix)(_ value: \(destinationClass)) {",
            "        removeObject(value, forKey: \"\(key)\")",
            "    }",
        ]
        return lines.joined(separator: "\n")
    }

    /// The key's declaration, typed by the destination class.
    func keyDeclaration(ownerClass: String) -> String {
        "    public static let \(SwiftName.identifier(relationship.name)) = "
            + "PropertyKey<\(ownerClass), \(destinationClass)>(\"\(relationship.name)\")"
    }

    /// The doc comment's lines.
    private var documentation: [String] {
        var kind: String
        if relationship.isToMany {
            kind = relationship.isOrdered ? "ordered to-many" : "to-many"
        } else {
            kind = "to-one"
        }
        kind += " \(relationship.destinationEntityName)"
        if let inverse = relationship.inverseName { kind += ", inverse `\(inverse)`" }
        kind += ", delete rule \(relationship.deleteRule.rawValue)"
        if relationship.isTransient { kind += ", transient" }
        return ["The `\(relationship.name)` relationship: \(kind)."]
    }
}

extension RelationshipCode {
    /// A to-one setter's statement: by position when it is known
    /// (`setObject(newValue, forKey: "author", at: 7)`, which checks the name there and
    /// falls back to the lookup, so a stale position is slower, never wrong), by name
    /// otherwise.
    var toOneSetterStatement: String {
        let key = relationship.name
        guard let position else { return "setObject(newValue, forKey: \"\(key)\")" }
        return "setObject(newValue, forKey: \"\(key)\", at: \(position))"
    }
}
