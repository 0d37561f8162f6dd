import Foundation

/// One workload measured on three sides (issue #27): raw C, GRDB records and Persistence,
/// one sample of each side per round.
struct SideBySideRow {
    var workload: String
    var size: String
    var raw: Samples?
    var grdb: Samples
    var persistence: Samples
    /// The issue's goal for Persistence / GRDB, if it sets one.
    var goal: Double?
    var note: String = ""
    /// The samples' unit: "s" (seconds) or "MB" (megabytes of memory).
    var unit: String = "s"

    /// The median of the per-round ratios `a / b`: both sides of a round ran back to back
    /// under the same load, so a round's ratio is steadier than a ratio of medians.
    static func ratio(_ a: Samples?, _ b: Samples?) -> Double? {
        guard let a, let b, !a.seconds.isEmpty, a.seconds.count == b.seconds.count else { return nil }
        var ratios = Samples()
        for (x, y) in zip(a.seconds, b.seconds) { ratios.add(x / y) }
        return ratios.median
    }

    var persistenceOverGRDB: Double? { Self.ratio(persistence, grdb) }
    var persistenceOverRaw: Double? { Self.ratio(persistence, raw) }
    var grdbOverRaw: Double? { Self.ratio(grdb, raw) }
    var met: Bool? { goal.flatMap { goal in persistenceOverGRDB.map { $0 <= goal } } }
}

/// Peak and retained memory per fetched book of GRDB records and Persistence objects.
struct MemoryRow {
    var books: Int
    /// Bytes per book: the peak resident size while fetching and reading all books, less
    /// the resident size before the fetch (`VmHWM` − `VmRSS`, one child process a sample).
    var grdbPeak: Samples
    var persistencePeak: Samples
    /// Bytes per book still resident once the fetch returned, the books held.
    var grdbHeld: Samples
    var persistenceHeld: Samples
    var goal: Double = 460
}

func ratioText(_ ratio: Double?) -> String { ratio.map { String(format: "%.2f×", $0) } ?? "–" }

/// The three-sided results as a Markdown table.
func sideBySideTable(_ rows: [SideBySideRow], memory: MemoryRow?) -> String {
    var lines = [
        "| Workload | N | raw C | GRDB | Persistence | Persistence / raw C | GRDB / raw C | Persistence / GRDB | goal | met |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|:-:|",
    ]
    for row in rows {
        let cells = [
            row.workload + (row.note.isEmpty ? "" : " (\(row.note))"), row.size,
            row.raw.map { milliseconds($0.median) } ?? "–", milliseconds(row.grdb.median),
            milliseconds(row.persistence.median),
            ratioText(row.persistenceOverRaw), ratioText(row.grdbOverRaw), ratioText(row.persistenceOverGRDB),
            row.goal.map { "≤ \(format($0))× GRDB" } ?? "", row.met.map { $0 ? "yes" : "**no**" } ?? "",
        ]
        lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    if let memory {
        let bytes = { (value: Double) in String(format: "%.0f B", value) }
        let peak = memory.persistencePeak.median / memory.grdbPeak.median
        lines.append(
            "| peak memory growth per fetched book, all read | \(memory.books) | – | \(bytes(memory.grdbPeak.median)) | "
                + "\(bytes(memory.persistencePeak.median)) | – | – | \(ratioText(peak)) | ≤ \(bytes(memory.goal)) a book | "
                + "\(memory.persistencePeak.median <= memory.goal ? "yes" : "**no**") |")
        let held = memory.persistenceHeld.median / memory.grdbHeld.median
        lines.append(
            "| memory still held per book after the fetch | \(memory.books) | – | \(bytes(memory.grdbHeld.median)) | "
                + "\(bytes(memory.persistenceHeld.median)) | – | – | \(ratioText(held)) |  |  |")
    }
    return lines.joined(separator: "\n")
}
