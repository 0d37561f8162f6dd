import Foundation
import Persistence

/// A horizontal bar chart drawn as text: a title, then a line per row with its label, its
/// count right-aligned, and a bar scaled to the largest count of the chart.
///
/// ```
/// Books read per year
///   2023   3 ████████████████████████████████████████████████████████████▌
///   2024   1 ████████████████████▏
/// ```
///
/// Bars are Unicode blocks in eighths of a column (`█`, `▏`…`▉`), or `#` signs in whole
/// columns for terminals that cannot show them (``Style/unicode`` false). A count above zero
/// always draws at least the smallest mark, so that it cannot pass for zero. Labels are data
/// (author names, series): they pass through `QuotedText.forDisplay`, so a control
/// character is shown escaped, and a label wider than a third of the line is cut with `…`
/// (`...` in ASCII).
struct BarChart {
    /// How a chart is drawn.
    struct Style: Equatable {
        /// The columns a line may take.
        var width: Int
        /// Unicode blocks; `#` signs when false.
        var unicode: Bool
    }

    /// One bar.
    struct Row: Equatable {
        var label: String
        var value: Int
    }

    /// The chart's heading.
    var title: String
    /// The bars, in order.
    var rows: [Row]

    /// The columns the bars get at the least, however narrow the line.
    static let minimumBarWidth = 10
    /// The eighths of a column, from none to seven.
    private static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The chart: the title, then a line per row, each ending with a newline; `note`
    /// (indented) instead of rows when there are none.
    func render(_ style: Style, note: String = "") -> String {
        var text = title + "\n"
        guard !rows.isEmpty else { return text + "  " + note + "\n" }
        let labelCap = max(8, style.width / 3)
        let labels = rows.map { Self.cut(QuotedText.forDisplay($0.label), to: labelCap, unicode: style.unicode) }
        let labelWidth = labels.map(Self.displayWidth).max() ?? 0
        let counts = rows.map { String($0.value) }
        let countWidth = counts.map(\.count).max() ?? 0
        let barWidth = max(Self.minimumBarWidth, style.width - 2 - labelWidth - 2 - countWidth - 1)
        let largest = rows.map(\.value).max() ?? 0
        for (index, row) in rows.enumerated() {
            let label = labels[index] + String(repeating: " ", count: labelWidth - Self.displayWidth(labels[index]))
            let count = String(repeating: " ", count: countWidth - counts[index].count) + counts[index]
            let bar = Self.bar(row.value, of: largest, width: barWidth, unicode: style.unicode)
            text += "  \(label)  \(count)" + (bar.isEmpty ? "" : " " + bar) + "\n"
        }
        return text
    }

    /// A bar of `value` where `largest` fills `width` columns, rounded to the nearest eighth
    /// (Unicode) or column (ASCII); at least the smallest mark for a value above zero.
    static func bar(_ value: Int, of largest: Int, width: Int, unicode: Bool) -> String {
        guard value > 0, largest > 0 else { return "" }
        let steps = unicode ? 8 : 1
        // value / largest of width * steps, rounded half up, in integers (no Double to drift).
        let scaled = value.multipliedReportingOverflow(by: width * steps * 2)
        let units = scaled.overflow
            ? Int((Double(value) / Double(largest) * Double(width * steps)).rounded())
            : (scaled.partialValue + largest) / (2 * largest)
        let marks = min(max(units, 1), width * steps)
        guard unicode else { return String(repeating: "#", count: marks) }
        return String(repeating: "█", count: marks / 8) + eighths[marks % 8]
    }

    // MARK: - Environment

    /// The columns a chart line may take: `COLUMNS` when it is a whole number from 20 to
    /// 10,000, else the terminal's width (when output is a terminal), else 80.
    static func width(environment: [String: String], terminalColumns: Int?) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text.trimmingCharacters(in: .whitespaces)),
            (20...10_000).contains(columns)
        {
            return columns
        }
        if let terminalColumns, terminalColumns >= 20 { return min(terminalColumns, 10_000) }
        return 80
    }

    /// Whether the locale of characters (`LC_ALL`, else `LC_CTYPE`, else `LANG`; an empty
    /// variable counts as unset) names the UTF-8 codeset (`en_US.UTF-8`, `C.utf8`).
    static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        guard let value = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }),
            let dot = value.firstIndex(of: ".")
        else { return false }
        let codeset = value[value.index(after: dot)...].prefix { $0 != "@" }.lowercased()
        return codeset == "utf-8" || codeset == "utf8"
    }

    // MARK: - Text width

    /// The columns `text` takes on a terminal: two for a wide (East Asian) character, one
    /// for any other, a character's combining marks included.
    static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { sum, character in sum + (character.unicodeScalars.first.map(isWide) == true ? 2 : 1) }
    }

    /// `text` cut to at most `limit` columns, ending in an ellipsis when cut.
    static func cut(_ text: String, to limit: Int, unicode: Bool) -> String {
        guard displayWidth(text) > limit else { return text }
        let ellipsis = unicode ? "…" : "..."
        var kept = ""
        var width = 0
        for character in text {
            let next = character.unicodeScalars.first.map(isWide) == true ? 2 : 1
            if width + next > limit - ellipsis.count { break }
            kept.append(character)
            width += next
        }
        return kept + ellipsis
    }

    /// Whether a scalar is East Asian Wide or Fullwidth (the common blocks: Hangul Jamo,
    /// CJK, Hangul syllables, compatibility ideographs, fullwidth forms, emoji).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
