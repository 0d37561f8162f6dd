/// A context, or one of its objects, used off the context's queue: from another context's
/// `perform` block, or a private-queue context outside any of its own.
public struct ContextConcurrencyError: Error, Sendable, CustomStringConvertible {
    /// The context, as `ManagedObjectContext.name` and its concurrency type describe it.
    public var context: String
    /// What was attempted ("fetch Book", "set Book.title of Book/p3").
    public var operation: String

    /// Creates an error.
    public init(context: String, operation: String) {
        self.context = context
        self.operation = operation
    }

    /// "Can't fetch Book off its context's queue: it belongs to context 'import' (private
    /// queue); use it inside that context's perform or performAndWait".
    public var description: String {
        "Can't \(operation) off its context's queue: it belongs to \(context); use it inside that context's perform or performAndWait"
    }
}
