extension ManagedObjectModel {
    /// Checks the model and throws every problem found, each with its entity and property.
    ///
    /// See `ModelValidator` for the rules. A relationship without an inverse is not an error;
    /// it is listed in `warnings`.
    ///
    /// - Throws: one `ModelError` listing every problem, when there is any.
    public func validate() throws {
        let errors = ModelValidator(self).errors
        if !errors.isEmpty { throw ModelError(problems: errors) }
    }

    /// Doubtful points that do not make the model invalid, such as a relationship without an
    /// inverse; empty for a clean model.
    public var warnings: [ModelProblem] {
        ModelValidator(self).warnings
    }
}
