import Foundation

/// One side of one workload measured at several store sizes (issue #27's growth rows):
/// the median time at each size and what it is divided by (the books in the store, or the
/// matches a search read), so that linear growth shows as a flat cost per book.
struct GrowthRow {
    var workload: String
    var side: String
    /// The store sizes, smallest first.
    var sizes: [Int]
    /// The samples at each size.
    var samples: [Samples]
    /// At each size, what the time is divided by: the books, or the matches read.
    var units: [Int]
    /// What a unit is: "book" or "match".
    var unit = "book"
    var note = ""

    /// The median time per unit at each size, in seconds.
    var perUnit: [Double] { zip(samples, units).map { $0.median / Double(Swift.max(1, $1)) } }

    /// From each size to the next: how many times the median time grew, and how many
    /// times the cost per unit did (1.00 is linear).
    var steps: [(total: Double, perUnit: Double)] {
        let per = perUnit
        return (1..<Swift.max(1, samples.count)).map { i in
            (samples[i].median / samples[i - 1].median, per[i] / per[i - 1])
        }
    }
}

/// A cost per book in a readable unit: nanoseconds under 10 µs, microseconds above.
func perUnitText(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "–" }
    if seconds < 10e-6 { return String(format: "%.0f ns", seconds * 1e9) }
    if seconds < 10e-3 { return String(format: "%.1f µs", seconds * 1e6) }
    return milliseconds(seconds)
}

/// "10k", "100k", "1M": a store size for a column heading.
func sizeText(_ n: Int) -> String {
    if n >= 1_000_000 && n % 1_000_000 == 0 { return "\(n / 1_000_000)M" }
    if n >= 1_000 && n % 1_000 == 0 { return "\(n / 1_000)k" }
    return "\(n)"
}

/// The growth rows as a Markdown table: for each size the median time and the cost per
/// unit, then for each step between sizes the growth of the time and of the cost per unit.
func growthTable(_ rows: [GrowthRow]) -> String {
    guard let sizes = rows.first?.sizes else { return "" }
    let names = sizes.map(sizeText)
    var header = ["Workload", "Side"]
    for name in names { header += ["\(name) median", "\(name) per unit"] }
    for i in names.indices.dropFirst() { header.append("\(names[i])/\(names[i - 1]) (per unit)") }
    header.append("Note")
    var lines = ["| " + header.joined(separator: " | ") + " |"]
    lines.append("|" + header.indices.map { $0 < 2 || $0 == header.count - 1 ? "---|" : "---:|" }.joined())
    for row in rows {
        var cells = [row.workload, row.side]
        for (samples, per) in zip(row.samples, row.perUnit) {
            cells += [milliseconds(samples.median), perUnitText(per) + " a " + row.unit]
        }
        for step in row.steps { cells.append(String(format: "%.1f× (%.2f)", step.total, step.perUnit)) }
        cells.append(row.note)
        lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
}
