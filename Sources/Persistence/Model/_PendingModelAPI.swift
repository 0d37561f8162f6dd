// TEMPORARY: stands in for the model-file work until it lands; deleted then.
import Foundation
extension ManagedObjectModel {
    public var entityVersionHashesByName: [String: Data] {
        var result: [String: Data] = [:]
        for e in entities { result[e.name] = Data(SHA256.hash(Data("\(e)".utf8))) }
        return result
    }
}
extension AttributeDescription {
    public var defaultValue: AttributeValue? { nil }
}
