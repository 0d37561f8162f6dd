import Foundation

/// Times of one side of a workload, in seconds, one per round.
struct Samples {
    var seconds: [Double] = []

    var min: Double { seconds.min() ?? .nan }
    var median: Double { percentile(50) }

    /// The nearest-rank percentile (`p` in 0...100).
    func percentile(_ p: Double) -> Double {
        guard !seconds.isEmpty else { return .nan }
        let sorted = seconds.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }

    mutating func add(_ value: Double) { seconds.append(value) }
}

/// Runs `body` once and returns its wall time in seconds.
func time(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// One row of the results table.
struct ResultRow {
    var workload: String
    var size: String
    var raw: Samples?
    var persistence: Samples
    /// How the result is judged against its target: a ratio limit (persistence / raw
    /// median) or an absolute limit on the persistence figure.
    var target: Target
    var note: String = ""
    /// Units of the samples.
    var unit: Unit = .seconds

    enum Unit { case seconds, megabytes, times }

    enum Target {
        case ratio(Double)
        case absolute(Double, label: String)
        case atLeast(Double, label: String)
        case none
    }

    /// A figure in the row's unit.
    func show(_ value: Double) -> String {
        switch unit {
        case .seconds: return milliseconds(value)
        case .megabytes: return String(format: "%.1f MB", value)
        case .times: return String(format: "%.0f×", value)
        }
    }

    var ratio: Double? { unit == .seconds ? raw.map { persistence.median / $0.median } : nil }

    var met: Bool? {
        switch target {
        case .ratio(let limit): return ratio.map { $0 <= limit }
        case .absolute(let limit, _): return persistence.median <= limit
        case .atLeast(let limit, _): return persistence.median >= limit
        case .none: return nil
        }
    }

    var targetText: String {
        switch target {
        case .ratio(let limit): return "≤ \(format(limit))× raw"
        case .absolute(_, let label), .atLeast(_, let label): return label
        case .none: return ""
        }
    }
}

func format(_ value: Double) -> String {
    value == value.rounded() && value < 100 ? String(Int(value)) : String(format: "%.2f", value)
}

/// Seconds as milliseconds with sensible precision.
func milliseconds(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "–" }
    let ms = seconds * 1000
    if ms >= 100 { return String(format: "%.0f ms", ms) }
    if ms >= 10 { return String(format: "%.1f ms", ms) }
    return String(format: "%.2f ms", ms)
}

/// The results as a Markdown table, as RESULTS.md shows them.
func markdownTable(_ rows: [ResultRow]) -> String {
    var lines = [
        "| Workload | N | Raw min | Raw median | Persistence min | Persistence median | Ratio | Target | Met |",
        "|---|---:|---:|---:|---:|---:|---:|---|:-:|",
    ]
    for row in rows {
        let show = row.show
        let raw = row.raw
        let cells = [
            row.workload + (row.note.isEmpty ? "" : " (\(row.note))"), row.size,
            raw.map { show($0.min) } ?? "–", raw.map { show($0.median) } ?? "–",
            show(row.persistence.min), show(row.persistence.median),
            row.ratio.map { String(format: "%.2f×", $0) } ?? "–",
            row.targetText,
            row.met.map { $0 ? "yes" : "**no**" } ?? "",
        ]
        lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
}
