// Placeholder until the model validator lands (owned by the model-file work).
extension ManagedObjectModel {
    /// Checks the model and throws every problem found.
    public func validate() throws {}
}
