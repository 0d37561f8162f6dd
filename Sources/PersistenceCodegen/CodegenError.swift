/// Why code cannot be generated for a model: a name Swift cannot use, a type with no Swift
/// counterpart, or an output that cannot be written.
public enum CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A property whose name the generated class cannot declare.
    case unusableName(entity: String, property: String, reason: String)
    /// An attribute whose type has no Swift type (Undefined).
    case unsupportedType(entity: String, attribute: String, type: String)
    /// An entity whose Codegen setting is none of `class`, `category` or empty.
    case unknownCodegen(entity: String, value: String)
    /// Two entities that would generate the same class or file.
    case duplicateClass(name: String, entities: [String])
    /// A file or directory that cannot be written.
    case unwritable(path: String, reason: String)

    /// The problem as a sentence naming the entity, property or file.
    public var description: String {
        switch self {
        case .unusableName(let entity, let property, let reason):
            return "Can't generate \(entity).\(property): \(reason); rename it in the model"
        case .unsupportedType(let entity, let attribute, let type):
            return "Can't generate \(entity).\(attribute): its type \(type) has no Swift type; "
                + "choose a type in the model"
        case .unknownCodegen(let entity, let value):
            return "Can't generate \(entity): its codeGenerationType '\(value)' is not "
                + "'class', 'category' or empty (Manual/None)"
        case .duplicateClass(let name, let entities):
            return "Can't generate class \(name): entities \(entities.joined(separator: " and ")) "
                + "both use it"
        case .unwritable(let path, let reason):
            return "Can't write \(path): \(reason)"
        }
    }
}
