import Foundation
import Persistence

/// A small deterministic mutation fuzzer shared by every fuzz target.
///
/// Each input is a valid seed changed by one to four mutations (a bit flip, an
/// "interesting" byte, a deleted, duplicated or truncated range, a syntax token inserted,
/// a token repeated up to 300 times for deep nesting, a splice of two seeds), or, one time in
/// twenty, a random string of tokens. The same `FUZZ_SEED` gives the same inputs, so a
/// failure names an input that can be replayed.
///
/// Quick mode (20,000 inputs per target) runs in `swift test`; the long mode sets
/// `FUZZ_ITERATIONS`, e.g. `FUZZ_ITERATIONS=5000000 swift test --filter FuzzTests`.
struct Fuzzer {
    /// Inputs per target: `FUZZ_ITERATIONS`, else 20,000.
    static let iterations = ProcessInfo.processInfo.environment["FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 20_000
    /// The generator's seed: `FUZZ_SEED`, else a fixed value.
    static let seed = ProcessInfo.processInfo.environment["FUZZ_SEED"].flatMap { UInt64($0) } ?? 0xF0_22ED
    /// The longest one input may take before it counts as a hang, in seconds.
    static let hangLimit = 2.0

    private var random: SplitMix64
    private let seeds: [[UInt8]]
    private let tokens: [[UInt8]]
    private static let interestingBytes: [UInt8] = [0x00, 0x01, 0x0A, 0x22, 0x27, 0x5C, 0x7F, 0x80, 0xC0, 0xE2, 0xFF]

    /// A fuzzer mutating `seeds` (never empty) with `tokens`, seeded per target so that
    /// adding a target does not change the inputs of another.
    init(seeds: [String], tokens: [String], target: String) {
        self.init(seeds: seeds.map { Array($0.utf8) }, tokens: tokens.map { Array($0.utf8) }, target: target)
    }

    /// A fuzzer over raw bytes.
    init(seeds: [[UInt8]], tokens: [[UInt8]], target: String) {
        let targetHash = target.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        random = SplitMix64(seed: Self.seed ^ targetHash)
        self.seeds = seeds.isEmpty ? [[]] : seeds
        self.tokens = tokens.isEmpty ? [[0x20]] : tokens
    }

    // MARK: - Inputs

    /// The next input as bytes.
    mutating func nextBytes() -> [UInt8] {
        if chance(5) {
            var bytes: [UInt8] = []
            for _ in 0..<int(1...20) {
                bytes.append(contentsOf: pick(tokens))
                if chance(50) { bytes.append(0x20) }
            }
            return bytes
        }
        var bytes = pick(seeds)
        for _ in 0..<int(1...4) { mutate(&bytes) }
        return bytes
    }

    /// The next input as text (invalid UTF-8 becomes U+FFFD).
    mutating func nextString() -> String {
        String(decoding: nextBytes(), as: UTF8.self)
    }

    /// The next list of words, for argument parsers: seed words (split at spaces) with words
    /// deleted, duplicated, swapped, replaced by tokens or mutated bytewise.
    mutating func nextWords() -> [String] {
        var words = String(decoding: pick(seeds), as: UTF8.self).split(separator: " ").map(String.init)
        for _ in 0..<int(1...3) {
            let index = words.isEmpty ? 0 : int(0...(words.count - 1))
            switch int(0...5) {
            case 0 where !words.isEmpty: words.remove(at: index)
            case 1 where !words.isEmpty: words.insert(words[index], at: index)
            case 2 where words.count > 1: words.swapAt(index, int(0...(words.count - 1)))
            case 3: words.insert(String(decoding: pick(tokens), as: UTF8.self), at: index)
            case 4 where !words.isEmpty:
                var bytes = Array(words[index].utf8)
                mutate(&bytes)
                words[index] = String(decoding: bytes, as: UTF8.self)
            default: words.append(String(decoding: pick(tokens), as: UTF8.self))
            }
        }
        return words
    }

    // MARK: - Mutations

    private mutating func mutate(_ bytes: inout [UInt8]) {
        let position = bytes.isEmpty ? 0 : int(0...bytes.count)
        switch int(0...8) {
        case 0 where !bytes.isEmpty:  // flip one bit
            let index = min(position, bytes.count - 1)
            bytes[index] ^= 1 << UInt8(int(0...7))
        case 1 where !bytes.isEmpty:  // an interesting byte
            bytes[min(position, bytes.count - 1)] = pick(Self.interestingBytes)
        case 2 where !bytes.isEmpty:  // delete a range
            let end = min(bytes.count, position + int(1...16))
            bytes.removeSubrange(min(position, end)..<end)
        case 3 where !bytes.isEmpty:  // duplicate a range
            let start = min(position, bytes.count - 1)
            let end = min(bytes.count, start + int(1...32))
            bytes.insert(contentsOf: bytes[start..<end], at: int(0...bytes.count))
        case 4:  // truncate
            bytes.removeSubrange(position..<bytes.count)
        case 5:  // a token repeated, for deep nesting and long runs
            let token = pick(tokens)
            var run: [UInt8] = []
            for _ in 0..<int(2...300) { run.append(contentsOf: token) }
            bytes.insert(contentsOf: run, at: position)
        case 6:  // splice with another seed
            let other = pick(seeds)
            let cut = other.isEmpty ? 0 : int(0...other.count)
            bytes = Array(bytes[..<position]) + other[cut...]
        default:  // insert a token
            bytes.insert(contentsOf: pick(tokens), at: position)
        }
    }

    // MARK: - Randomness

    // Plain modulo arithmetic rather than `Int.random(in:using:)`: the generic path is
    // not specialised in debug builds and cost most of the quick mode's time. (The slight
    // bias of a modulo does not matter here.)
    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.upperBound - range.lowerBound + 1))
    }
    private mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    private mutating func pick(_ list: [[UInt8]]) -> [UInt8] { list[int(0...(list.count - 1))] }
    private mutating func pick(_ list: [UInt8]) -> UInt8 { list[int(0...(list.count - 1))] }
}

/// What a fuzz target did with its inputs.
struct FuzzReport: CustomStringConvertible {
    var accepted = 0
    var rejected = 0
    var slowest: (seconds: Double, input: String) = (0, "")
    /// The whole run's time, in seconds.
    var seconds = 0.0
    /// Inputs whose outcome broke a rule, with the rule; the first few are kept.
    var failures: [String] = []

    var description: String {
        "\(accepted) accepted, \(rejected) rejected in \(String(format: "%.2f", seconds)) s; slowest \(String(format: "%.4f", slowest.seconds)) s on \(slowest.input.debugDescription.prefix(120))"
    }

    /// Records a broken rule for `input`.
    mutating func fail(_ rule: String, input: String) {
        if failures.count < 10 { failures.append("\(rule) — input \(input.debugDescription.prefix(300))") }
    }
}

/// How a target treated one input.
enum FuzzOutcome {
    /// The input was accepted (and passed the target's own checks, such as a round trip).
    case accepted
    /// The input was refused with this error.
    case rejected(any Error)
}

extension Fuzzer {
    /// Runs `body` on `iterations` inputs made by `make`, and checks the rules every target
    /// shares: every rejection is a thrown error whose description is a non-empty sentence
    /// on one line (unless `multilineErrors`), that is not a raw type dump, and no input takes
    /// longer than ``hangLimit``. A crash ends the test process, naming the test.
    static func run<Input>(
        iterations: Int = Fuzzer.iterations, multilineErrors: Bool = false,
        make: () -> Input, show: (Input) -> String, _ body: (Input) throws -> FuzzOutcome
    ) -> FuzzReport {
        var report = FuzzReport()
        let clock = ContinuousClock()
        let began = clock.now
        for _ in 0..<iterations {
            let input = make()
            let start = clock.now
            let outcome: FuzzOutcome
            do { outcome = try body(input) } catch { outcome = .rejected(error) }
            let seconds = Double((clock.now - start).components.attoseconds) / 1e18
                + Double((clock.now - start).components.seconds)
            if seconds > report.slowest.seconds { report.slowest = (seconds, show(input)) }
            if seconds > hangLimit { report.fail("took \(seconds) s", input: show(input)) }
            switch outcome {
            case .accepted: report.accepted += 1
            case .rejected(let error as FuzzRuleBroken):
                report.fail(error.description, input: show(input))
            case .rejected(let error):
                report.rejected += 1
                let text = String(describing: error)
                if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    report.fail("an error with an empty description", input: show(input))
                } else if !multilineErrors, text.contains("\n") {
                    report.fail("an error on several lines: \(text.prefix(200))", input: show(input))
                } else if text.hasSuffix(")"), text.hasPrefix("\(type(of: error))(") {
                    // (The type's name is looked up only for a likely dump: it is slow.)
                    report.fail("an error without a description: \(text.prefix(200))", input: show(input))
                }
            }
        }
        let elapsed = (clock.now - began).components
        report.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return report
    }
}

/// An accepted input that broke a target's own rule, such as a failed round trip: thrown by
/// a target's body, it is reported as a failure, not counted as a rejection.
struct FuzzRuleBroken: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
