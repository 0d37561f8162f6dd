/// The one "Did you mean …?" algorithm of both executables: the known name nearest to what
/// was typed, when it is near enough to be the likely intent.
///
/// Callers pass candidates of the same kind only (options for an option, subcommands for a
/// subcommand); ``CommandLineParser`` also leaves out options that could not take the value
/// typed (a flag for `--jsn=yes`).
///
/// Nearness is the restricted Damerau–Levenshtein distance (a swap of two neighbouring
/// letters counts as one edit, the commonest typo). A name is suggested only within a third
/// of the typed name's length, at least one and at most two edits: two edits turn a short
/// name into an unrelated one (`--sort` into `--store`), and a wrong guess is worse than none,
/// as git's and swift-argument-parser's suggestions keep to close matches too.
package enum NameSuggestion {
    /// The largest distance ever suggested.
    package static let maximumDistance = 2

    /// The candidate nearest to `typed` within ``allowedDistance(for:)`` edits; the first
    /// listed wins a tie. Leading dashes are ignored when measuring the typed name's length,
    /// so `--jsn` is judged as `jsn`.
    package static func closest(to typed: String, in candidates: [String]) -> String? {
        // No name is longer than a few dozen characters: a long word is near none of them,
        // and comparing it would cost its length times theirs.
        guard typed.count <= 64 else { return nil }
        let limit = allowedDistance(for: typed)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, candidate)
            if distance <= limit && distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The option (as `--name`) to suggest for the unknown option `typed`, among `options`
    /// that could take what was typed: with `--name=value`, only options whose kind accepts
    /// `value`, never a flag (a suggestion that fails on the very next try is no help); with
    /// no value, any close option. ``closestOption(to:written:in:)`` also judges the word
    /// that follows.
    package static func closestOption(
        to typed: String, value: String?, in options: [OptionSpec]
    ) -> String? {
        let candidates = options.filter { option in
            guard let value else { return true }
            return !option.isFlag && option.kind.accepts(value)
        }
        return closest(to: typed, in: candidates.map { "--\($0.name)" })
    }

    /// How an unknown option was written, which decides what kind of option may be
    /// suggested for it.
    package enum WrittenForm: Sendable, Equatable {
        /// `--name=value`: only an option that takes a value, and accepts this one.
        case withValue(String)
        /// `--name word`, the next word not an option: an option taking a value would take
        /// `word` as its value.
        case beforeWord(String)
        /// `--name` last on the line or before another option: nothing would be taken.
        case alone
    }

    /// The option (as `--name`) to suggest for the unknown option `typed`, written as `form`,
    /// among `options`: only a suggestion that, followed, cannot do something else than
    /// was meant.
    ///
    /// - `--name=value`: options that take a value and accept `value` (never a flag).
    /// - `--name word`: flags (the word stays where it was); options whose value is checked
    ///   narrowly (a number, a UUID, one of a list) and accepts `word`; an option that
    ///   takes any text or a path (`--store`) only when `typed` is its name with two
    ///   neighbouring letters swapped. Any other edit could come from another name the user
    ///   meant (`--sore title` for a `--sort`), and following the hint would make the word
    ///   its value: a store file named `title`.
    /// - `--name` alone: any close option (following it takes nothing).
    package static func closestOption(
        to typed: String, written form: WrittenForm, in options: [OptionSpec]
    ) -> String? {
        switch form {
        case .withValue(let value):
            return closestOption(to: typed, value: value, in: options)
        case .alone:
            return closestOption(to: typed, value: nil, in: options)
        case .beforeWord(let word):
            let safe = options.filter { option in
                option.isFlag || (option.takesNarrowValue && option.kind.accepts(word))
            }
            if let name = closest(to: typed, in: safe.map { "--\($0.name)" }) { return name }
            return options.first { option in
                !option.isFlag && !option.takesNarrowValue && isTransposition(typed, of: "--\(option.name)")
            }.map { "--\($0.name)" }
        }
    }

    /// Whether `typed` is `name` with exactly two neighbouring characters swapped.
    package static func isTransposition(_ typed: String, of name: String) -> Bool {
        let a = Array(typed), b = Array(name)
        guard a.count == b.count else { return false }
        let differences = a.indices.filter { a[$0] != b[$0] }
        guard differences.count == 2, differences[1] == differences[0] + 1 else { return false }
        return a[differences[0]] == b[differences[1]] && a[differences[1]] == b[differences[0]]
    }

    /// How many edits away a suggestion for `typed` may be: a third of its length without
    /// leading dashes, at least 1 and at most ``maximumDistance``.
    package static func allowedDistance(for typed: String) -> Int {
        let length = typed.drop { $0 == "-" }.count
        return min(maximumDistance, max(1, length / 3))
    }

    /// The optimal-string-alignment (restricted Damerau–Levenshtein) distance: insertions,
    /// deletions, substitutions and swaps of two neighbouring characters each count one.
    package static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
