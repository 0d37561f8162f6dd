import Foundation

extension UUID {
    /// The nil UUID, all 128 bits zero (RFC 4122 §4.1.7): what a generated required UUID
    /// property reads before the object has a value.
    public static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
