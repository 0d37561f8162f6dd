import PersistenceModel
import PersistenceStore
/// Managed objects are equal when they are the same object, as in Core Data, so that
/// generated code can hold an unordered to-many relationship in a `Set`.
///
/// A context keeps one object per row (uniquing), so identity is also "the same row in the
/// same context". Two contexts' objects for one row are different objects.
extension ManagedObject: Hashable {
    /// Whether `lhs` and `rhs` are the same object.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
