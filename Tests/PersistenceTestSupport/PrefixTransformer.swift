import Foundation
import Persistence

/// A value transformer that writes a String as `prefix:` and the text, and refuses data
/// without its prefix on the way back: two of them stand for a transformer that changed.
package struct PrefixTransformer: ValueTransforming {
    package let prefix: String

    package init(prefix: String) { self.prefix = prefix }

    package func transformedValue(_ value: any Sendable) throws -> Data {
        guard let string = value as? String else { throw ValueTransformerError(attribute: "?", transformerName: prefix, reason: "not a String") }
        return Data((prefix + ":" + string).utf8)
    }

    package func reverseTransformedValue(_ data: Data) throws -> any Sendable {
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix(prefix + ":") else {
            throw ValueTransformerError(attribute: "?", transformerName: prefix, reason: "no '\(prefix):' prefix")
        }
        return String(text.dropFirst(prefix.count + 1))
    }
}
