import Foundation
import PersistenceModel
import PersistenceStore

/// What a fetch request of any `resultType` returns (see `ManagedObjectContext.execute(_:)`).
public enum FetchResult {
    /// `.managedObjectResultType`: the objects.
    case objects([ManagedObject])
    /// `.managedObjectIDResultType`: the objects' IDs.
    case objectIDs([ObjectID])
    /// `.dictionaryResultType`: a dictionary of `propertiesToFetch` per object.
    case dictionaries([[String: Any]])
    /// `.countResultType`: the number of objects.
    case count(Int)
}

extension ManagedObjectContext {
    /// Runs a fetch request whatever its `resultType`, as Core Data's `fetch(_:)` does for
    /// an untyped request: objects, IDs, dictionaries or a count, each as its typed entry
    /// point gives it (`fetch(_:)`, `fetchObjectIDs(_:)`, `fetchDictionaries(_:properties:)`,
    /// `count(for:)`), unsaved changes included.
    ///
    /// - Throws: as the entry point of the result type.
    public func execute(_ request: FetchRequest) throws -> FetchResult {
        switch request.resultType {
        case .managedObjectResultType: return .objects(try fetch(request))
        case .managedObjectIDResultType: return .objectIDs(try fetchObjectIDs(request))
        case .dictionaryResultType: return .dictionaries(try fetchDictionaries(request))
        case .countResultType: return .count(try count(for: request))
        }
    }
}
