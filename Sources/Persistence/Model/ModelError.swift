/// One problem found in a model: what is wrong, and where.
public struct ModelProblem: Sendable, Hashable, CustomStringConvertible {
    /// The entity the problem is in, if any.
    public var entity: String?
    /// The property the problem is in, if any.
    public var property: String?
    /// What is wrong, as a sentence fragment ("has no inverse", "names an unknown
    /// destination entity 'Autor'").
    public var message: String

    /// Creates a problem report.
    public init(entity: String? = nil, property: String? = nil, message: String) {
        self.entity = entity
        self.property = property
        self.message = message
    }

    /// The problem with its location: "Book.author: names an unknown destination 'Autor'".
    public var description: String {
        switch (entity, property) {
        case (let e?, let p?): return "\(e).\(p): \(message)"
        case (let e?, nil): return "\(e): \(message)"
        case (nil, let p?): return "\(p): \(message)"
        case (nil, nil): return message
        }
    }
}

/// A model that cannot be used: a file that cannot be read, or a model with problems.
///
/// `problems` lists every problem found, each with its entity and property, so a user can fix
/// them all at once.
public struct ModelError: Error, Sendable, CustomStringConvertible {
    /// The model file, when the model came from one.
    public var file: String?
    /// Every problem found.
    public var problems: [ModelProblem]

    /// Creates a model error.
    public init(file: String? = nil, problems: [ModelProblem]) {
        self.file = file
        self.problems = problems
    }

    /// Creates a model error with a single problem.
    public init(file: String? = nil, entity: String? = nil, property: String? = nil, _ message: String)
    {
        self.init(file: file, problems: [ModelProblem(entity: entity, property: property, message: message)])
    }

    /// "The model in X has 2 problems:" followed by one line per problem, or a single line
    /// when there is one problem.
    public var description: String {
        let place = file.map { "The model in \($0)" } ?? "The model"
        if problems.count == 1 { return "\(place) is invalid: \(problems[0])" }
        return "\(place) has \(problems.count) problems:\n"
            + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
