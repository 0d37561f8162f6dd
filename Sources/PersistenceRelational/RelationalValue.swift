import Foundation

/// A value bound to a `?` of compiled SQL, in the storage classes every SQL database this
/// project writes to shares: a store turns it into its own driver's value.
package enum RelationalValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}
