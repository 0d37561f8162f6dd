import Foundation
import PersistenceModel
import PersistenceStore

/// Checks objects against their model's validation rules before a save, collecting every
/// failure.
struct ObjectValidator {
    /// 2001-01-01 00:00:00 UTC, the reference date Xcode writes date bounds against.
    private static let referenceDate = Date(timeIntervalSinceReferenceDate: 0)

    /// The failures of an inserted or updated object.
    ///
    /// The object is walked through its entity's `PropertyPlan`s: most properties need only
    /// a nil check, and copying each `SchemaProperty` out of the schema costs more than the
    /// checks. The full descriptions are read only for the few properties with rules.
    ///
    /// Every property is still checked for nil (Core Data validates the whole object on
    /// save), but an updated object's attribute values equal to its committed ones skip
    /// the costlier rules (ranges, bounds, patterns): they passed them when they were saved,
    /// or came from the store, whose rows only a validated save writes. Rows written behind
    /// the library's back, or under a model whose rules have since been tightened, are the
    /// exception, and Core Data does not re-check those either until they change.
    static func failures(of object: ManagedObject) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        let schema = object.schema
        object.fireFaultIfNeeded()
        let committed = object.isInserted ? nil : object.committedSlots
        // One read of the slots for the whole walk, not two or three per property.
        let slots = object.slots
        for (position, plan) in schema.plans.enumerated() {
            func fail(_ rule: ValidationFailure.Rule, _ value: String, _ requirement: String) {
                failures.append(
                    ValidationFailure(
                        object: object.objectID.description, entity: schema.name, property: plan.name,
                        rule: rule, value: value, requirement: requirement))
            }
            func failPredicate(_ value: String, _ requirement: String, _ warning: String) {
                fail(.predicate, value, requirement)
                failures[failures.count - 1].warning = warning
            }
            switch plan.kind {
            case .attribute, .derivedAttribute:
                // Tested in place: binding the value copied (retained) it for every attribute.
                if slots[position].isNullValue {
                    if !plan.isOptional { fail(.missingMandatoryProperty, "nil", "is required") }
                    continue
                }
                guard plan.needsValueCheck, case .value(let value) = slots[position] else { continue }
                if let committed, position < committed.count, slots[position].isSame(as: committed[position]) {
                    continue
                }
                guard let type = plan.attributeType else { continue }
                let bounds = schema.bounds[position]
                check(value, type, pattern: plan.pattern, minimum: bounds?.minimum, maximum: bounds?.maximum, fail)
                if let predicates = schema.validationPredicates[position] {
                    checkPredicates(predicates, value: value, subject: object.predicateValue(at: position), failPredicate)
                }
            case .toMany:
                guard !plan.isTransient else { continue }
                // Only a constrained to-many is counted: an unconstrained one stays a fault.
                guard !plan.isOptional || plan.needsValueCheck,
                    case .relationship(let relationship) = schema.properties[position]
                else { continue }
                // Core Data's rule ("Configuring relationships"): an optional to-many may be
                // empty whatever its bounds; a required one may not, and a to-many that holds
                // objects holds between its minimum and maximum count.
                let count = object.objects(at: position).count
                if count == 0, relationship.isOptional {
                    continue
                } else if count == 0, relationship.minCount == 0 {
                    fail(.missingMandatoryProperty, "(empty)", "is required")
                } else if relationship.minCount > 0, count < relationship.minCount {
                    fail(.relationshipLacksMinimumCount, "(\(count) objects)", "must hold at least \(relationship.minCount)")
                }
                if relationship.maxCount > 0, count > relationship.maxCount {
                    fail(.relationshipExceedsMaximumCount, "(\(count) objects)", "must hold at most \(relationship.maxCount)")
                }
            case .toOne:
                guard !plan.isTransient else { continue }
                if !plan.isOptional, object.object(at: position) == nil {
                    fail(.missingMandatoryProperty, "nil", "is required")
                }
            }
        }
        return failures
    }

    /// The Deny failures of an object being deleted.
    static func denyFailures(of object: ManagedObject) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        let schema = object.schema
        for position in schema.relationshipPositions {
            guard case .relationship(let r) = schema.properties[position], r.deleteRule == .deny else { continue }
            let count = r.isToMany ? object.objects(at: position).filter { !$0.isDeleted }.count
                : (object.object(at: position).map { $0.isDeleted ? 0 : 1 } ?? 0)
            if count > 0 {
                failures.append(
                    ValidationFailure(
                        object: object.objectID.description, entity: object.schema.name, property: r.name,
                        rule: .relationshipDeniedDelete, value: "(\(count) objects)",
                        requirement: "must be empty for the object to be deleted (delete rule Deny)"))
            }
        }
        return failures
    }

    private static func check(
        _ value: AttributeValue, _ type: AttributeType, pattern: String?, minimum: Decimal?, maximum: Decimal?,
        _ fail: (ValidationFailure.Rule, String, String) -> Void
    ) {
        switch value {
        case .integer(let v):
            if let range = type.integerRange, !range.contains(v) {
                fail(v < range.lowerBound ? .numberTooSmall : .numberTooLarge, String(v), "is outside the range of \(type.rawValue)")
            }
            checkNumber(Decimal(v), String(v), minimum, maximum, fail)
        case .double(let v):
            if !v.isNaN, v.isFinite { checkNumber(Decimal(v), String(v), minimum, maximum, fail) }
        case .decimal(let v):
            checkNumber(v, DecimalText.format(v), minimum, maximum, fail)
        case .date(let v):
            // Most dates have no bounds: skip the costly Double → Decimal conversion.
            guard minimum != nil || maximum != nil else { return }
            let seconds = Decimal(v.timeIntervalSinceReferenceDate)
            if let minimum, seconds < minimum {
                fail(.dateTooSoon, "\(v)", "must be on or after \(referenceDate.addingTimeInterval(NSDecimalNumber(decimal: minimum).doubleValue))")
            }
            if let maximum, seconds > maximum {
                fail(.dateTooLate, "\(v)", "must be on or before \(referenceDate.addingTimeInterval(NSDecimalNumber(decimal: maximum).doubleValue))")
            }
        case .string(let s):
            // Counting characters walks the whole string, breaking graphemes: only when the
            // cheap bounds cannot decide. A non-empty string has at least one character, and
            // never more characters than UTF-8 bytes.
            if let minimum, Decimal(s.isEmpty ? 0 : 1) < minimum, Decimal(s.count) < minimum {
                fail(.stringTooShort, "\"\(s)\"", "must be at least \(minimum) characters")
            }
            if let maximum, Decimal(s.utf8.count) > maximum, Decimal(s.count) > maximum {
                fail(.stringTooLong, "\"\(s.prefix(40))…\" (\(s.count) characters)", "must be at most \(maximum) characters")
            }
            if let pattern {
                // A pattern that cannot be decided within its step budget refuses the value,
                // saying so, rather than holding the save for minutes.
                do {
                    if try !RegularExpressionCache.shared.matches(pattern: pattern, text: s) {
                        fail(.stringPatternMatching, "\"\(s)\"", "must match /\(pattern)/")
                    }
                } catch let error as RegularExpressionTooSlow {
                    fail(.stringPatternMatching, "\"\(s)\"", "could not be checked: \(error.description)")
                } catch {
                    fail(.stringPatternMatching, "\"\(s)\"", "must match /\(pattern)/")
                }
            }
        case .data(let bytes):
            // Binary Data's minimum and maximum are lengths in bytes. Core Data has no error
            // codes of its own for them: the length codes (1670 too short, 1660 too long) serve.
            if let minimum, Decimal(bytes.count) < minimum {
                fail(.stringTooShort, "(\(bytes.count) bytes)", "must be at least \(minimum) bytes long")
            }
            if let maximum, Decimal(bytes.count) > maximum {
                fail(.stringTooLong, "(\(bytes.count) bytes)", "must be at most \(maximum) bytes long")
            }
        default:
            break
        }
    }

    /// Evaluates an attribute's validation predicates with its value as `SELF`; each one
    /// that is false (or cannot be evaluated) fails with the model's warning text.
    private static func checkPredicates(
        _ predicates: [(predicate: FetchPredicate, warning: String)], value: AttributeValue, subject: PredicateValue,
        _ fail: (_ value: String, _ requirement: String, _ warning: String) -> Void
    ) {
        for (predicate, warning) in predicates {
            let holds: Bool
            var reason = ""
            do { holds = try predicate.evaluate(withValue: subject) } catch {
                holds = false
                reason = " (\((error as? FetchPredicateError)?.message ?? "\(error)"))"
            }
            guard !holds else { continue }
            let shown: String
            switch value {
            case .string(let s) where s.count > 40: shown = "\"\(s.prefix(40))…\""
            default: shown = value.description
            }
            let requirement = "fails its validation predicate \(predicate)\(reason)"
            fail(shown, warning.isEmpty ? requirement : "\(requirement): \(warning)", warning)
        }
    }

    /// `value` and `text` are only evaluated when a bound is set (the text only when one
    /// fails): converting and formatting every valid number costs more than the check.
    private static func checkNumber(
        _ value: @autoclosure () -> Decimal, _ text: @autoclosure () -> String, _ minimum: Decimal?, _ maximum: Decimal?,
        _ fail: (ValidationFailure.Rule, String, String) -> Void
    ) {
        guard minimum != nil || maximum != nil else { return }
        let value = value()
        if let minimum, value < minimum { fail(.numberTooSmall, text(), "must be at least \(DecimalText.format(minimum))") }
        if let maximum, value > maximum { fail(.numberTooLarge, text(), "must be at most \(DecimalText.format(maximum))") }
    }
}

extension Slot {
    /// Whether the slot holds no attribute value (nil, or not an attribute's slot), tested
    /// without copying the value out.
    var isNullValue: Bool {
        switch self {
        case .value(.null): return true
        case .value: return false
        default: return true
        }
    }
}
