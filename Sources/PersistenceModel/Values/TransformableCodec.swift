import Foundation

/// A transformable attribute's value and the bytes that keep it, in every store: what its
/// value transformer (registered by name, see `ValueTransformers`) makes of it, and back.
package enum TransformableCodec {
    /// The bytes that keep a transformable attribute's value: its named transformer's
    /// output, bytes passed through, `Data` as it is, or an `Encodable` value as JSON.
    ///
    /// - Throws: `ValueTransformerError` naming `entity.attribute` when the value cannot be
    ///   encoded (no such transformer, the transformer refuses it, not Encodable).
    package static func encode(_ value: any Sendable, attribute: AttributeDescription, entity: String) throws -> Data {
        // Only errors name the attribute: building the name for every value would be an
        // allocation per object saved.
        var name: String { "\(entity).\(attribute.name)" }
        if let bytes = value as? TransformableBytes { return bytes.data }
        if let transformerName = attribute.valueTransformerName {
            guard let transformer = ValueTransformers.transformer(forName: transformerName) else {
                throw ValueTransformerError(
                    attribute: name, transformerName: transformerName, reason: "no transformer is registered under that name")
            }
            do { return try transformer.transformedValue(value) } catch let error as ValueTransformerError {
                throw error
            } catch {
                throw ValueTransformerError(attribute: name, transformerName: transformerName, reason: "\(error)")
            }
        }
        if let data = value as? Data { return data }
        guard let encodable = value as? any Encodable else {
            throw ValueTransformerError(
                attribute: name, transformerName: nil,
                reason: "\(type(of: value)) is not Encodable and the attribute names no value transformer")
        }
        do { return try JSONEncoder().encode(encodable) } catch {
            throw ValueTransformerError(attribute: name, transformerName: nil, reason: "\(error)")
        }
    }

    /// The value stored bytes keep, through the attribute's transformer; without one (or
    /// with none registered under its name), the bytes passed through.
    ///
    /// - Throws: `ValueTransformerError` when the transformer cannot decode the bytes.
    package static func decode(_ data: Data, attribute: AttributeDescription, entity: String) throws -> any Sendable {
        guard let transformerName = attribute.valueTransformerName else { return TransformableBytes(data) }
        // Tools that read any model (persistence-tool) pass bytes through when no transformer
        // is registered; the store refuses to open for apps without one (see SQLiteStore).
        guard let transformer = ValueTransformers.transformer(forName: transformerName) else {
            return TransformableBytes(data)
        }
        return try reverseTransform(
            data, with: transformer, transformerName: transformerName, attribute: attribute.name, entity: entity)
    }

    /// Decodes a transformable attribute's stored bytes with its transformer.
    ///
    /// The names are read only for the error: a store decoding many rows passes them
    /// without copying them per row.
    ///
    /// - Throws: `ValueTransformerError` naming `entity.attribute` and the transformer when
    ///   the bytes cannot be decoded.
    package static func reverseTransform(
        _ data: Data, with transformer: any ValueTransforming, transformerName: @autoclosure () -> String,
        attribute: @autoclosure () -> String, entity: @autoclosure () -> String
    ) throws -> any Sendable {
        do { return try transformer.reverseTransformedValue(data) } catch {
            throw ValueTransformerError(
                attribute: "\(entity()).\(attribute())", transformerName: transformerName(),
                reason: "the stored bytes could not be decoded (\(error))")
        }
    }
}
