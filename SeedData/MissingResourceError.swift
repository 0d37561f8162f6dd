/// A file `books` ships with its binary is in none of the places it looks (see
/// ``InstalledResource``): a binary copied without its resource folders.
public struct MissingResourceError: Error, Sendable, CustomStringConvertible {
    /// The resource: `books_SeedData.resources/books.json`.
    public var resource: String
    /// The folders searched, in order.
    public var searched: [String]

    /// Creates an error.
    public init(resource: String, searched: [String]) {
        self.resource = resource
        self.searched = searched
    }

    public var description: String {
        let places = searched.isEmpty ? "(the running binary could not be found)" : searched.joined(separator: " and ")
        return "\(resource) is missing: it was looked for in \(places); install the resource folders "
            + "beside the binary or in its ../share/books (README, \"Install\")."
    }
}
