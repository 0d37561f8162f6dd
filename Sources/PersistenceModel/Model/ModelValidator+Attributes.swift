import Foundation

/// The checks of one attribute: its type, default, range, pattern, validation predicates and
/// derivation.
extension ModelValidator {
    // MARK: - Attributes

    mutating func check(
        _ attribute: AttributeDescription, in entity: EntityDescription,
        properties: PropertyLookup
    ) {
        let name = attribute.name
        if attribute.type == .undefined {
            error(entity.name, name, "has the type Undefined; choose an attribute type")
        }
        if attribute.isIndexed && attribute.isTransient {
            error(
                entity.name, name,
                "is indexed but transient: a transient attribute has no column "
                    + "to index")
        }
        var defaultValue: AttributeValue?
        if let text = attribute.defaultValueString, attribute.type != .undefined {
            do {
                defaultValue = try AttributeDescription.modelValue(
                    parsing: text, as: attribute.type)
            } catch {
                self.error(
                    entity.name, name,
                    "has a default value that is not valid for \(attribute.type.rawValue): "
                        + error.reason)
            }
        }
        checkRange(of: attribute, defaultValue: defaultValue, in: entity)
        if let pattern = attribute.regularExpressionString {
            if attribute.type != .string {
                error(
                    entity.name, name,
                    "has a regular expression but is \(attribute.type.rawValue), "
                        + "not String")
            }
            do {
                _ = try NSRegularExpression(pattern: pattern)
            } catch {
                self.error(entity.name, name, "has an invalid regular expression '\(pattern)'")
            }
        }
        if attribute.validationPredicates.count != attribute.validationWarnings.count {
            error(
                entity.name, name,
                "has \(attribute.validationPredicates.count) validation "
                    + "predicates but \(attribute.validationWarnings.count) validation warnings; they "
                    + "pair up by position")
        }
        for predicate in attribute.validationPredicates {
            checkValidationPredicate(predicate, of: attribute, in: entity)
        }
        if let expression = attribute.derivationExpression {
            checkDerivation(expression, of: attribute, in: entity, properties: properties)
        }
    }

    // MARK: - Validation predicates

    /// Refuses a validation predicate that does not parse, or that could not be evaluated
    /// with a value of the attribute's type as `SELF`: a key the value has not got
    /// (`title.name`), a comparison with a value of another type (`SELF > 5` on a String), a
    /// `$variable` (nothing binds one at save), an invalid `MATCHES` pattern.
    ///
    /// Each comparison is evaluated on its own with a sample value of the type, so that every
    /// one is checked whatever `AND` and `OR` would skip, and with the very rules a save
    /// applies (`PredicateEvaluator`), so the model check and the save cannot disagree.
    private mutating func checkValidationPredicate(
        _ format: String, of attribute: AttributeDescription, in entity: EntityDescription
    ) {
        let quoted = "'\(QuotedText.excerpt(format))'"
        let predicate: FetchPredicate
        do {
            predicate = try FetchPredicate(format)
        } catch let failure as FetchPredicateError {
            let position = failure.position.map { " at position \($0)" } ?? ""
            error(
                entity.name, attribute.name,
                "has a validation predicate \(quoted) that does not parse\(position): \(failure.message)")
            return
        } catch {
            self.error(entity.name, attribute.name, "has a validation predicate \(quoted) that does not parse: \(error)")
            return
        }
        guard let sample = Self.sampleValue(of: attribute.type) else { return }
        var reported: Set<String> = []
        predicate.expression.forEachComparison { comparison in
            do {
                _ = try FetchPredicate(expression: .comparison(comparison)).evaluate(withValue: sample)
            } catch let failure as FetchPredicateError {
                guard reported.insert(failure.message).inserted else { return }
                error(
                    entity.name, attribute.name,
                    "has a validation predicate \(quoted) that cannot be evaluated with its "
                        + "\(attribute.type.rawValue) values as SELF: \(failure.message)")
            } catch {
                self.error(entity.name, attribute.name, "has a validation predicate \(quoted) that fails: \(error)")
            }
        }
    }

    /// A value of `type` as a predicate sees it, to try a validation predicate on; nil for
    /// the types whose values a predicate cannot read (Undefined, ObjectID).
    private static func sampleValue(of type: AttributeType) -> PredicateValue? {
        switch type {
        case .integer16, .integer32, .integer64: return .integer(0)
        case .decimal: return .decimal(0)
        case .double, .float: return .double(0)
        case .string: return .string("a")
        case .boolean: return .bool(false)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: 0))
        case .binaryData, .transformable: return .data(Data())
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .uri: return URL(string: "about:blank").map { .url($0) }
        case .objectID, .undefined: return nil
        }
    }

    /// A minimum or maximum, or a default, on one scale.
    private enum Bound: Comparable {
        case exact(Decimal)
        case approximate(Double)

        static func < (lhs: Bound, rhs: Bound) -> Bool {
            switch (lhs, rhs) {
            case (.exact(let a), .exact(let b)): return a < b
            case (.approximate(let a), .approximate(let b)): return a < b
            default: return false
            }
        }
    }

    mutating func checkRange(
        of attribute: AttributeDescription, defaultValue: AttributeValue?,
        in entity: EntityDescription
    ) {
        let type = attribute.type
        func bound(_ text: String?, _ which: String) -> Bound? {
            guard let text else { return nil }
            switch type {
            case .integer16, .integer32, .integer64:
                if let value = Int64(text) { return .exact(Decimal(value)) }
                error(
                    entity.name, attribute.name,
                    "has a \(which) '\(text)' that is not a whole number")
            case .decimal:
                if let value = try? DecimalText.parse(text) { return .exact(value) }
                error(
                    entity.name, attribute.name,
                    "has a \(which) '\(text)' that is not a decimal number")
            case .double, .float, .date:
                if let value = AttributeDescription.finiteNumber(text) {
                    return .approximate(value)
                }
                let unit = type == .date ? " of seconds since 2001-01-01" : ""
                error(
                    entity.name, attribute.name,
                    "has a \(which) '\(text)' that is not a number\(unit)")
            case .string, .binaryData:
                if let value = Int(text), value >= 0 { return .exact(Decimal(value)) }
                error(
                    entity.name, attribute.name,
                    "has a \(which) length '\(text)' that is not a "
                        + "whole number of 0 or more")
            default:
                error(
                    entity.name, attribute.name,
                    "has a \(which) '\(text)', but \(type.rawValue) "
                        + "attributes have no range")
            }
            return nil
        }
        let minimum = bound(attribute.minValueString, "minimum")
        let maximum = bound(attribute.maxValueString, "maximum")
        if let minimum, let maximum, maximum < minimum {
            error(
                entity.name, attribute.name,
                "has a minimum \(attribute.minValueString ?? "") "
                    + "greater than its maximum \(attribute.maxValueString ?? "")")
        }
        let value: Bound?
        switch defaultValue {
        case .integer(let v)?: value = .exact(Decimal(v))
        case .decimal(let v)?: value = .exact(v)
        case .double(let v)? where v.isFinite: value = .approximate(v)
        case .date(let v)?: value = .approximate(v.timeIntervalSinceReferenceDate)
        default: value = nil
        }
        guard let value, let text = attribute.defaultValueString else { return }
        if let minimum, value < minimum {
            error(
                entity.name, attribute.name,
                "has a default \(text) below its minimum "
                    + (attribute.minValueString ?? ""))
        }
        if let maximum, maximum < value {
            error(
                entity.name, attribute.name,
                "has a default \(text) above its maximum "
                    + (attribute.maxValueString ?? ""))
        }
    }

    // MARK: - Derivations

    mutating func checkDerivation(
        _ expression: String, of attribute: AttributeDescription, in entity: EntityDescription,
        properties: PropertyLookup
    ) {
        let name = attribute.name
        let derivation: Derivation
        do {
            derivation = try Derivation(parsing: expression)
        } catch {
            self.error(entity.name, name, "has a derivation that does not parse: \(error)")
            return
        }
        func fail(_ message: String) {
            error(entity.name, name, "derives '\(expression)', but \(message)")
        }
        if derivation.sourceKeys.contains(name) { fail("an attribute can't derive from itself") }
        switch derivation {
        case .canonical(let key), .lowercase(let key), .uppercase(let key):
            guard case .attribute(let source)? = properties[key] else {
                fail("\(entity.name) has no attribute '\(key)'")
                return
            }
            if source.type != .string {
                fail("'\(key)' is \(source.type.rawValue), not String")
            }
            if attribute.type != .string {
                fail("the result is a String and the attribute is \(attribute.type.rawValue)")
            }
        case .now:
            if attribute.type != .date {
                fail("now() gives a Date and the attribute is \(attribute.type.rawValue)")
            }
        case .keyPath(let path):
            var owner = entity.name
            for (position, key) in path.enumerated() {
                let isLast = position == path.count - 1
                let property = position == 0 ? properties[key] : resolvedProperty(key, of: owner)
                switch property {
                case nil:
                    fail("\(owner) has no property '\(key)'")
                    return
                case .attribute?:
                    if !isLast {
                        fail(
                            "'\(key)' is an attribute of \(owner); only to-one relationships can "
                                + "lead further")
                        return
                    }
                case .relationship(let step)?:
                    if isLast {
                        fail("the key path ends at the relationship '\(key)', not an attribute")
                    } else if step.isToMany {
                        fail(
                            "'\(key)' is a to-many relationship of \(owner); a key path needs to-one "
                                + "steps (use @count or @sum for to-many)")
                        return
                    }
                    owner = step.destinationEntityName
                }
            }
        case .count(let key), .sum(let key, _):
            guard case .relationship(let relationship)? = properties[key], relationship.isToMany
            else {
                fail("\(entity.name) has no to-many relationship '\(key)'")
                return
            }
            if case .sum(_, let summed) = derivation {
                let destination = relationship.destinationEntityName
                guard case .attribute(let target)? = resolvedProperty(summed, of: destination),
                    target.type.isNumeric
                else {
                    fail("\(destination) has no numeric attribute '\(summed)'")
                    return
                }
                if !attribute.type.isNumeric {
                    fail("a sum is a number and the attribute is \(attribute.type.rawValue)")
                }
            } else if !attribute.type.isInteger {
                fail("a count is an integer and the attribute is \(attribute.type.rawValue)")
            }
        }
    }
}
