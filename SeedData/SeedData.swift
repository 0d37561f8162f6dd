import Foundation

/// The catalogue's seed data, shipped as a resource so that a fresh build can seed a store
/// with no network and no path guessing.
public enum SeedData {
    /// The URL of `books.json`, the real books `books seed` loads.
    public static var booksURL: URL {
        guard let url = Bundle.module.url(forResource: "books", withExtension: "json") else {
            // The resource is declared in Package.swift; its absence is a broken build.
            preconditionFailure("SeedData/books.json is missing from the SeedData bundle")
        }
        return url
    }
}
