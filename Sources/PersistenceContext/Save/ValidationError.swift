import PersistenceModel
import PersistenceStore
/// One value that breaks one of the model's rules.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The rule, with Core Data's error code for it.
    public enum Rule: Int, Sendable, Hashable {
        /// A validation predicate failed (`NSManagedObjectValidationError`); the failure's
        /// `warning` is the model's text for it.
        case predicate = 1550
        /// A required property has no value.
        case missingMandatoryProperty = 1570
        /// A to-many holds fewer objects than its minimum count.
        case relationshipLacksMinimumCount = 1580
        /// A to-many holds more objects than its maximum count.
        case relationshipExceedsMaximumCount = 1590
        /// A Deny rule refuses the deletion while the relationship is not empty.
        case relationshipDeniedDelete = 1600
        /// A number is above its maximum or its type's range.
        case numberTooLarge = 1610
        /// A number is below its minimum or its type's range.
        case numberTooSmall = 1620
        /// A date is after its maximum.
        case dateTooLate = 1630
        /// A date is before its minimum.
        case dateTooSoon = 1640
        /// A string is longer than its maximum length, or Binary Data than its maximum
        /// length in bytes (Core Data has no code for data lengths: the length codes serve).
        case stringTooLong = 1660
        /// A string is shorter than its minimum length, or Binary Data than its minimum
        /// length in bytes.
        case stringTooShort = 1670
        /// A string does not match its regular expression.
        case stringPatternMatching = 1680
    }

    /// The object, as `Entity/p12` or `Entity/t3`.
    public var object: String
    /// The entity.
    public var entity: String
    /// The property.
    public var property: String
    /// The rule broken.
    public var rule: Rule
    /// The offending value, as it reads in a message.
    public var value: String
    /// What the rule requires, as a sentence fragment ("must be at most 500 characters").
    public var requirement: String
    /// For a failed validation predicate, the model's warning for it (Core Data's
    /// `validationWarnings`, the text an app shows), as written; nil for the other rules.
    public var warning: String? = nil

    /// "Book/t1: title "" must be at least 1 character (rule 1670)".
    public var description: String {
        "\(object): \(entity).\(property) \(value) \(requirement) (validation error \(rule.rawValue))"
    }
}

/// A save refused because objects break the model's rules: every failure, not just the first.
public struct ValidationError: Error, Sendable, CustomStringConvertible {
    /// Every failure found.
    public var failures: [ValidationFailure]

    /// One line for one failure; a count and one line each for several.
    public var description: String {
        if failures.count == 1 { return "Validation failed: \(failures[0])" }
        return "Validation failed with \(failures.count) errors:\n" + failures.map { "  \($0)" }.joined(separator: "\n")
    }
}

/// A save refused because inserted or changed objects have values that a uniqueness
/// constraint requires to be unique, and the merge policy does not resolve the conflict
/// (`.error` resolves none; see `MergePolicy` for the others).
public struct ConstraintConflictError: Error, Sendable, CustomStringConvertible {
    /// The entity whose constraint is violated.
    public var entity: String
    /// The constraint's properties.
    public var keys: [String]
    /// The conflicting values, as they read in a message.
    public var values: [String]
    /// The object whose save conflicted.
    public var object: String

    /// A sentence naming the constraint and the values.
    public var description: String {
        let pairs = zip(keys, values).map { "\($0) = \($1)" }.joined(separator: ", ")
        return "\(object) conflicts with another \(entity) on the unique constraint (\(keys.joined(separator: ", "))): "
            + "\(pairs) is already taken"
    }
}
