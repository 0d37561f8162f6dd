/// A save refused under the `.error` merge policy because objects it would update or
/// delete were written or deleted in the store (by another context or process) since they
/// were read: Core Data's optimistic locking failure (`NSManagedObjectMergeError`, code
/// 133020). Nothing was written, and the context keeps its changes: refresh the objects, or
/// save under another `MergePolicy`.
public struct MergeConflictError: Error, Sendable, CustomStringConvertible {
    /// One object whose row changed or vanished.
    public struct Conflict: Sendable, CustomStringConvertible {
        /// The object's entity.
        public var entity: String
        /// The object's ID, as it reads in a message.
        public var object: String
        /// Whether the row was deleted from the store.
        public var rowDeleted: Bool
        /// The properties whose stored value differs from the one the object read (none
        /// for a deleted row).
        public var properties: [PropertyConflict]

        /// A sentence naming the object and what changed under it.
        public var description: String {
            if rowDeleted { return "\(object) was deleted from the store since it was read" }
            guard !properties.isEmpty else { return "\(object) was saved elsewhere since it was read" }
            return "\(object) was changed in the store since it was read: "
                + properties.map(\.description).joined(separator: ", ")
        }
    }

    /// A property of a conflicting object with the object's value and the store's.
    public struct PropertyConflict: Sendable, CustomStringConvertible {
        /// The property's name.
        public var name: String
        /// The object's value, as it reads in a message.
        public var objectValue: String
        /// The store's value, as it reads in a message.
        public var storeValue: String

        /// `title: object "A", store "B"`.
        public var description: String { "\(name): object \(objectValue), store \(storeValue)" }
    }

    /// Each conflicting object.
    public var conflicts: [Conflict]

    /// A line per conflicting object: one line in all for one object, and for several a
    /// first line that counts them, then each on its own line.
    public var description: String {
        guard conflicts.count != 1 else { return "The save conflicts with changes in the store: \(conflicts[0])" }
        return (["The save conflicts with changes in the store (\(conflicts.count) objects):"]
            + conflicts.map { "  \($0)" }).joined(separator: "\n")
    }
}
