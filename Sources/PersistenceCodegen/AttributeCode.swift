import PersistenceModel

/// How one attribute appears in generated Swift: its property's type and its accessors.
///
/// The rules, following Xcode's Codegen for Swift:
/// - Integer, Double, Float and Boolean attributes with "Use Scalar Type" are non-optional
///   Swift scalars (`Int64`, `Bool`), whatever their optionality, reading 0 or `false` when
///   the object has no value.
/// - Other optional attributes are Swift optionals (`String?`, `Date?`, `Int64?`).
/// - Other required attributes are non-optional, reading the type's empty value (`""`, 0,
///   the epoch, the nil UUID, empty data) when the object has no value yet; saving such an
///   object fails validation, as it should.
/// - URI and Transformable attributes are always optional: they have no empty value.
/// - A Transformable is typed by its custom class name (`Color?`), or `(any Sendable)?`
///   without one: its value may cross threads (a save, a merge), so it must be Sendable.
///   Generated code sets it through `setTransformableAttribute(_:forKey:at:)`, whose type the
///   compiler checks, never through `self[key]`, which takes only values whose type shows
///   they are Sendable.
/// - Derived attributes are read-only: the store computes them on save.
struct AttributeCode {
    /// The attribute.
    let attribute: AttributeDescription
    /// The Swift type of the values, without `?`: `String`, `Int64`, `Color`, `Any`.
    let valueType: String
    /// Whether the property's type is optional.
    let isOptional: Bool
    /// What the getter reads when the object has no value, for a non-optional property.
    let emptyValue: String?
    /// Whether the property is a Swift scalar ("Use Scalar Type" on a number or Boolean).
    let isScalar: Bool
    /// The attribute's position among its entity's properties, which the getter and the
    /// typed setter read and write by (the name is checked there at run time, and a
    /// mismatch falls back to the lookup by name); nil to go by name.
    let position: Int?

    /// Maps an attribute of `entity`, at `position` among the entity's properties; nil for
    /// an ObjectID attribute, which holds no values.
    ///
    /// - Throws: `CodegenError.unsupportedType` for an Undefined attribute.
    init?(_ attribute: AttributeDescription, entity: String, position: Int? = nil) throws {
        self.attribute = attribute
        self.position = position
        let scalar: Bool
        switch attribute.type {
        case .integer16: (valueType, emptyValue, scalar) = ("Int16", "0", true)
        case .integer32: (valueType, emptyValue, scalar) = ("Int32", "0", true)
        case .integer64: (valueType, emptyValue, scalar) = ("Int64", "0", true)
        case .double: (valueType, emptyValue, scalar) = ("Double", "0", true)
        case .float: (valueType, emptyValue, scalar) = ("Float", "0", true)
        case .boolean: (valueType, emptyValue, scalar) = ("Bool", "false", true)
        case .decimal: (valueType, emptyValue, scalar) = ("Decimal", "0", false)
        case .string: (valueType, emptyValue, scalar) = ("String", "\"\"", false)
        case .date: (valueType, emptyValue, scalar) = ("Date", "Date(timeIntervalSince1970: 0)", false)
        case .binaryData: (valueType, emptyValue, scalar) = ("Data", "Data()", false)
        case .uuid: (valueType, emptyValue, scalar) = ("UUID", "UUID.zero", false)
        case .uri: (valueType, emptyValue, scalar) = ("URL", nil, false)
        case .transformable:
            let custom = attribute.customClassName.flatMap { $0.isEmpty ? nil : $0 }
            (valueType, emptyValue, scalar) = (custom ?? "(any Sendable)", nil, false)
        case .objectID:
            return nil
        case .undefined:
            throw CodegenError.unsupportedType(
                entity: entity, attribute: attribute.name, type: attribute.type.rawValue)
        }
        isScalar = scalar && attribute.usesScalarValueType
        isOptional = !isScalar && (attribute.isOptional || emptyValue == nil)
    }

    /// The property's declared type: `String?`, `Int64`, `Color?`.
    var propertyType: String { isOptional ? valueType + "?" : valueType }

    /// The property's declaration with its doc comment, indented for an extension body.
    func declaration(ownerClass: String) -> String {
        let key = attribute.name
        let name = SwiftName.identifier(key)
        let getter: String
        // Getters read by position (`value(at: 5, forKey: "title", default: "")`): no hash of
        // the name per read. Without a known position they read by name.
        let at = position.map { "at: \($0), " } ?? ""
        if attribute.type == .transformable {
            // Without a known position, -1: a position that is wrong finds the value by name.
            getter = "transformedValue(at: \(position ?? -1), forKey: \"\(key)\")"
        } else if let emptyValue, !isOptional {
            getter = "value(\(at)forKey: \"\(key)\", default: \(emptyValue))"
        } else {
            getter = "value(\(at)forKey: \"\(key)\")"
        }
        var lines = documentation.map { "    /// " + $0 }
        if attribute.isDerived {
            lines.append("    public var \(name): \(propertyType) { \(getter) }")
        } else {
            lines += [
                "    public var \(name): \(propertyType) {",
                "        get { \(getter) }",
                "        set { \(setterStatement) }",
                "    }",
            ]
        }
        return lines.joined(separator: "\n")
    }

    /// The key's declaration: `public static let title = PropertyKey<Book, String>("title")`.
    func keyDeclaration(ownerClass: String) -> String {
        "    public static let \(SwiftName.identifier(attribute.name)) = "
            + "PropertyKey<\(ownerClass), \(valueType)>(\"\(attribute.name)\")"
    }

    /// The doc comment's lines: what the attribute is, in the model's terms.
    private var documentation: [String] {
        var facts = [attribute.type.rawValue]
        if attribute.type == .transformable, let name = attribute.valueTransformerName {
            facts.append("transformed by \(name)")
        }
        if isScalar { facts.append("scalar") }
        facts.append(attribute.isOptional ? "optional" : "required")
        if attribute.isTransient { facts.append("transient: kept in memory only") }
        var lines = ["The `\(attribute.name)` attribute: \(facts.joined(separator: ", "))."]
        if let derivation = attribute.derivationExpression {
            lines.append("Derived from `\(derivation)` when the object is saved; read-only.")
        }
        return lines
    }
}

extension AttributeCode {
    /// The setter's statement: by position and type when both are known
    /// (`setAttribute(newValue, forKey: "title", at: 1)`), by name otherwise.
    var setterStatement: String {
        let key = attribute.name
        if attribute.type == .transformable {
            // Typed, so that the compiler checks the value is Sendable; without a known
            // position, -1: a position that is wrong sets the value by name.
            return "setTransformableAttribute(newValue, forKey: \"\(key)\", at: \(position ?? -1))"
        }
        guard let position else { return "self[\"\(key)\"] = newValue" }
        return "setAttribute(newValue, forKey: \"\(key)\", at: \(position))"
    }
}
