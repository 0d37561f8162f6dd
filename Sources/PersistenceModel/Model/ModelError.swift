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
    ///
    /// Names and values come from a model file and may be of any length: each is quoted in
    /// part, as every error quotes input, so that a 100,000-character entity name or
    /// attribute type leaves the problem one short line.
    public var description: String {
        let message = Self.shortened(message)
        switch (entity.map { QuotedText.excerpt($0) }, property.map { QuotedText.excerpt($0) }) {
        case (let e?, let p?): return "\(e).\(p): \(message)"
        case (let e?, nil): return "\(e): \(message)"
        case (nil, let p?): return "\(p): \(message)"
        case (nil, nil): return message
        }
    }

    /// The most characters a problem's message keeps, whatever it quotes.
    static let maximumMessageLength = 400

    /// `message` with every single-quoted value longer than ``QuotedText/excerptLength``
    /// cut to an excerpt, and the whole cut to ``maximumMessageLength`` characters (a name
    /// with quotes inside it escapes the first rule, not the second).
    static func shortened(_ message: String) -> String {
        guard message.count > QuotedText.excerptLength else { return message }
        var result = ""
        var inQuote = false
        for (index, part) in message.split(separator: "'", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { result += "'" }
            result += inQuote && part.count > QuotedText.excerptLength
                ? String(part.prefix(QuotedText.excerptLength - 1)) + "…" : String(part)
            inQuote.toggle()
        }
        guard result.count > maximumMessageLength else { return result }
        return String(result.prefix(maximumMessageLength - 1)) + "…"
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
