/// A write a store refused because a uniqueness constraint of the model would be broken:
/// which write (the `tag` its caller gave it) and which of the entity's
/// `uniquenessConstraints` (nil when the store cannot tell). The caller names the object and
/// its values in the error it reports (`ConstraintConflictError`).
package struct UniquenessViolation: Error {
    /// The caller's tag of the refused insert or update.
    package let tag: Int
    /// The position of the broken constraint in the entity's `uniquenessConstraints`.
    package let constraintIndex: Int?

    package init(tag: Int, constraintIndex: Int?) {
        self.tag = tag
        self.constraintIndex = constraintIndex
    }
}
