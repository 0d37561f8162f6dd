import Foundation
import Persistence

/// Checks of a command's input against the catalogue's model, without a store.
///
/// A command that fails writes nothing: `books list --where 'nosuch == 1'` must refuse the
/// predicate before the store is opened (or created and seeded). Each check refuses what
/// the command itself would refuse, with the same error, because it compiles the same
/// request against the same model.
extension Catalog {
    /// Parses a predicate over books, such as `price < 15`, and checks its keys and types
    /// against the `Book` entity.
    ///
    /// - Throws: `FetchPredicateError` for text that is not a predicate; `FetchError` for
    ///   a key `Book` does not have or a comparison its store could not run.
    public static func bookPredicate(_ format: String) throws -> FetchPredicate {
        let predicate = try FetchPredicate(format: format, argumentArray: [])
        try checkedModel().checkFetchRequest(
            FetchRequest(entityName: "Book", predicate: predicate, sortDescriptors: listingOrder))
        return predicate
    }

    /// Checks that `text` can be searched for, as ``search(_:limit:)`` searches.
    ///
    /// - Throws: ``SearchQueryError`` for a malformed query (naming the position);
    ///   `FetchError` when the store could not run the search, such as for text with more
    ///   different words than a search may have.
    public static func checkSearchText(_ text: String) throws {
        try checkedModel().checkFetchRequest(try SearchQuery(text).fetchRequest(limit: nil))
    }

    /// The model, with the transformers its attributes name registered, as a store opens it.
    private static func checkedModel() throws -> ManagedObjectModel {
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        return try loadModel()
    }
}
