import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore

/// A transformable attribute whose value transformer changes between two model versions,
/// with both transformers looked up: re-encodes a stored value from the old transformer's
/// bytes to the new one's.
///
/// The transformer name is not part of the version hash (as in Core Data), so the change is
/// only seen when both models are known. A side that names no transformer keeps the bytes
/// as stored: the old side hands them over as `Data`, the new side stores `Data` as it is
/// and an `Encodable` value as JSON (`RowCodec`).
struct MigrationTransformerChange {
    /// The destination entity that declares the attribute.
    let entity: String
    /// The attribute in the destination model.
    let attribute: AttributeDescription
    /// The old transformer's name, if any.
    let oldName: String?
    /// The old transformer, when the old side names one.
    private let oldTransformer: (any ValueTransforming)?
    /// The new transformer, when the new side names one.
    private let newTransformer: (any ValueTransforming)?

    /// The change a `changeTransformer` step stands for, or nil for another step.
    ///
    /// - Throws: `MigrationError` (`.missingValueTransformer`) naming the attribute and the
    ///   transformer that is not registered.
    init?(_ step: MigrationStep, in plan: MigrationPlan) throws {
        guard step.kind == .changeTransformer, let property = step.property,
            let attribute = plan.destination.entity(named: step.entity)?.attribute(named: property),
            let sourceEntity = plan.sourceEntity(for: step.entity),
            let sourceName = plan.sourcePropertyNames[step.entity]?[property],
            let was = plan.source.entity(named: sourceEntity)?.attribute(named: sourceName)
        else { return nil }
        let change = "its value transformer changes from \(MigrationInference.transformerName(was)) to "
            + "\(MigrationInference.transformerName(attribute))"
        for name in [was.valueTransformerName, attribute.valueTransformerName].compactMap({ $0 })
        where ValueTransformers.transformer(forName: name) == nil {
            throw MigrationError(
                .missingValueTransformer, entity: step.entity, property: property,
                reason: "\(change), but no transformer is registered under '\(name)', so the stored "
                    + "values can't be re-encoded; register it with ValueTransformers.register(_:forName:) "
                    + "before migrating")
        }
        self.entity = step.entity
        self.attribute = attribute
        self.oldName = was.valueTransformerName
        self.oldTransformer = was.valueTransformerName.flatMap { ValueTransformers.transformer(forName: $0) }
        self.newTransformer = attribute.valueTransformerName.flatMap { ValueTransformers.transformer(forName: $0) }
    }

    /// The bytes the new transformer makes of the value the old one reads from `data`, the
    /// stored bytes of the object with primary key `key`. Bytes the old transformer can't
    /// decode but the new one can are kept as they are: a store opened with the new model
    /// without migration (equal version hashes) holds values written with it.
    ///
    /// - Throws: `MigrationError` (`.invalidData`) naming the object when neither
    ///   transformer can decode the bytes or the new one cannot encode the value.
    func reencode(_ data: Data, key: Int64) throws -> Data {
        let value: any Sendable
        do {
            value = try oldTransformer?.reverseTransformedValue(data) ?? data
        } catch {
            if let newTransformer, (try? newTransformer.reverseTransformedValue(data)) != nil { return data }
            throw MigrationError(
                .invalidData, entity: entity, property: attribute.name,
                reason: "\(entity) \(key) holds bytes that the old transformer '\(oldName ?? "")' can't decode "
                    + "(\(error))" + (newTransformer == nil ? "" : " and the new one can't either"))
        }
        do {
            guard case .blob(let bytes) = try RowCodec.encode(.transformable(value), for: attribute, entity: entity) else {
                return data
            }
            return bytes
        } catch {
            throw MigrationError(
                .invalidData, entity: entity, property: attribute.name,
                reason: "the value of \(entity) \(key) can't be encoded with the new transformer: \(error)")
        }
    }
}

extension MigrationPlan {
    /// The plan's value transformer changes, with their transformers looked up; run before
    /// anything is written, so that a missing transformer leaves the store untouched.
    ///
    /// - Throws: `MigrationError` (`.missingValueTransformer`) naming the attribute and the
    ///   transformer that is not registered.
    func transformerChanges() throws -> [MigrationTransformerChange] {
        try steps.compactMap { try MigrationTransformerChange($0, in: self) }
    }
}
