import Foundation

/// The catalogue's seed data, shipped as a resource so that a fresh build can seed a store
/// with no network.
public enum SeedData {
    /// The URL of `books.json`, the real books `books seed` loads.
    ///
    /// - Throws: ``MissingResourceError`` when it is neither beside the binary nor in its
    ///   `../share/books` (see ``InstalledResource``).
    public static func booksURL() throws -> URL {
        try InstalledResource(target: "SeedData", name: "books.json").url()
    }
}
