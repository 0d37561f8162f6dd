/// What happens to a relationship's destination when its source object is deleted.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// References are left as they are; the app is responsible for them.
    case noAction = "No Action"
    /// The inverse relationship of each destination is cleared (the default).
    case nullify = "Nullify"
    /// The destination objects are deleted too, transitively.
    case cascade = "Cascade"
    /// The deletion is refused at save while the relationship is not empty.
    case deny = "Deny"
}
