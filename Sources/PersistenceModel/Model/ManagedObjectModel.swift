import Foundation

/// A model: the entities an app stores, with their properties, constraints and indexes.
///
/// Build one in code, or read an Xcode model file with `init(contentsOf:)`. A model is
/// editable until a store uses it; opening a store freezes it, after which any mutation is a
/// programmer error (Core Data raises; we stop with a message naming the model element).
/// `copy()` gives an editable copy of a frozen model.
///
/// Sendable, checked by the compiler: all its state is in one `Locked` value (a lock, not
/// `Mutex`, so that ThreadSanitizer can check it: see `Locked`), so freezing, editing and
/// reading never race, whichever threads they run on. A frozen model never changes, so
/// contexts on many queues share one.
public final class ManagedObjectModel: Sendable {
    /// The contents and, once frozen, the resolved entities: one lock for both, so that no
    /// edit slips in between a freeze's check and its setting `frozenSchemas`.
    private let state: Locked<State>

    private struct State: Sendable {
        var contents: Contents
        var frozenSchemas: [String: EntitySchema]?
    }

    /// Everything a model holds apart from its frozen state.
    struct Contents: Hashable, Sendable {
        var entities: [EntityDescription]
        var fetchRequestTemplates: [FetchRequestTemplate]
        var configurations: [String: [String]]
        var versionIdentifier: String?
        var documentAttributes: [String: String]
    }

    /// Creates a model from entity descriptions.
    ///
    /// - Parameters:
    ///   - entities: the entities, in any order.
    ///   - fetchRequestTemplates: named fetch requests stored with the model.
    ///   - configurations: named subsets of entities, by configuration name.
    ///   - versionIdentifier: the model's version identifier
    ///     [`userDefinedModelVersionIdentifier`].
    ///   - documentAttributes: the `<model>` element's other attributes (tools versions,
    ///     source language), kept so a file round-trips.
    public init(
        entities: [EntityDescription],
        fetchRequestTemplates: [FetchRequestTemplate] = [],
        configurations: [String: [String]] = [:],
        versionIdentifier: String? = nil,
        documentAttributes: [String: String] = [:]
    ) {
        let contents = Contents(
            entities: entities, fetchRequestTemplates: fetchRequestTemplates,
            configurations: configurations, versionIdentifier: versionIdentifier,
            documentAttributes: documentAttributes)
        state = Locked(State(contents: contents, frozenSchemas: nil))
    }

    // MARK: - Contents

    /// The model's entities. Setting it on a frozen model is a programmer error.
    public var entities: [EntityDescription] {
        get { read { $0.entities } }
        set {
            mutate(element: { Self.changedEntityName(from: $0.entities, to: newValue) }) {
                $0.entities = newValue
            }
        }
    }

    /// Named fetch request templates stored in the model.
    public var fetchRequestTemplates: [FetchRequestTemplate] {
        get { read { $0.fetchRequestTemplates } }
        set { mutate(element: { _ in "fetch request templates" }) { $0.fetchRequestTemplates = newValue } }
    }

    /// Named configurations: the entities each includes.
    public var configurations: [String: [String]] {
        get { read { $0.configurations } }
        set { mutate(element: { _ in "configurations" }) { $0.configurations = newValue } }
    }

    /// The model's version identifier [`userDefinedModelVersionIdentifier`].
    public var versionIdentifier: String? {
        get { read { $0.versionIdentifier } }
        set { mutate(element: { _ in "version identifier" }) { $0.versionIdentifier = newValue } }
    }

    /// The `<model>` element's other attributes, kept so that a model file round-trips.
    public var documentAttributes: [String: String] {
        get { read { $0.documentAttributes } }
        set { mutate(element: { _ in "document attributes" }) { $0.documentAttributes = newValue } }
    }

    /// The entity with this name, if any.
    public func entity(named name: String) -> EntityDescription? {
        read { $0.entities.first { $0.name == name } }
    }

    /// Replaces the entity named `name` with the result of `change`. A programmer error on a
    /// frozen model.
    public func modifyEntity(named name: String, _ change: (inout EntityDescription) -> Void) {
        mutate(element: { _ in "entity \(name)" }) { contents in
            guard let index = contents.entities.firstIndex(where: { $0.name == name }) else {
                preconditionFailure("The model has no entity named \(name)")
            }
            change(&contents.entities[index])
        }
    }

    // MARK: - Freezing

    /// Whether a store uses this model, so that it can no longer change.
    public var isFrozen: Bool { state.withLock { $0.frozenSchemas != nil } }

    /// Validates the model and freezes it. Opening a store calls this; calling it again is
    /// harmless.
    ///
    /// - Throws: `ModelError` listing every problem, if the model is not valid; the model
    ///   then stays editable.
    public func freeze() throws {
        if isFrozen { return }
        try validate()
        let schemas = try EntitySchema.resolve(entities)
        state.withLock { state in
            if state.frozenSchemas == nil { state.frozenSchemas = schemas }
        }
    }

    /// An editable copy of this model, frozen or not.
    public func copy() -> ManagedObjectModel {
        let contents = read { $0 }
        return ManagedObjectModel(
            entities: contents.entities, fetchRequestTemplates: contents.fetchRequestTemplates,
            configurations: contents.configurations, versionIdentifier: contents.versionIdentifier,
            documentAttributes: contents.documentAttributes)
    }

    /// The resolved form of an entity (inherited properties, positions, sub-entities), for
    /// the store and the context. Available once the model is frozen.
    package func schema(for entityName: String) -> EntitySchema? {
        state.withLock { $0.frozenSchemas?[entityName] }
    }

    /// All resolved entities of a frozen model, by name; empty before freezing.
    package var schemas: [String: EntitySchema] { state.withLock { $0.frozenSchemas ?? [:] } }

    // MARK: - Internals

    private func read<T: Sendable>(_ body: (Contents) -> T) -> T {
        state.withLock { body($0.contents) }
    }

    /// Applies `body` to the contents; on a frozen model, stops with a message naming the
    /// element `element` describes (given the current contents).
    private func mutate(element: (Contents) -> String, _ body: (inout Contents) -> Void) {
        state.withLock { state in
            precondition(
                state.frozenSchemas == nil,
                "Can't modify \(element(state.contents)) of a model that a store is using: the model is "
                    + "frozen. Make changes to model.copy() instead.")
            body(&state.contents)
        }
    }

    private static func changedEntityName(
        from old: [EntityDescription], to newValue: [EntityDescription]
    ) -> String {
        for entity in newValue where !old.contains(entity) { return "entity \(entity.name)" }
        for entity in old where !newValue.contains(entity) { return "entity \(entity.name)" }
        return "the entities"
    }
}

extension ManagedObjectModel: Equatable {
    /// Two models are equal when they have the same entities (in any order), fetch request
    /// templates, configurations and version identifier. Document attributes such as tools
    /// versions do not count.
    public static func == (lhs: ManagedObjectModel, rhs: ManagedObjectModel) -> Bool {
        let a = lhs.read { $0 }
        let b = rhs.read { $0 }
        return a.entities.sorted { $0.name < $1.name } == b.entities.sorted { $0.name < $1.name }
            && Set(a.fetchRequestTemplates) == Set(b.fetchRequestTemplates)
            && a.configurations.mapValues(Set.init) == b.configurations.mapValues(Set.init)
            && a.versionIdentifier == b.versionIdentifier
    }
}
