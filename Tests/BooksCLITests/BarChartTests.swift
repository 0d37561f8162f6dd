import Testing

@testable import books

/// `BarChart`'s arithmetic and text widths: what the end-to-end charts of
/// `StatsCommandTests` rely on at the edges (tiny and huge counts, wide characters).
@Suite struct BarChartTests {
    @Test func aBarIsRoundedToTheNearestEighthAndNeverHidesACount() {
        #expect(BarChart.bar(1, of: 2, width: 10, unicode: true) == "█████")
        #expect(BarChart.bar(1, of: 3, width: 10, unicode: true) == "███▍")  // 26.67 eighths → 27
        #expect(BarChart.bar(1, of: 3, width: 10, unicode: false) == "###")
        // A count far below the largest still shows.
        #expect(BarChart.bar(1, of: 1_000_000, width: 50, unicode: true) == "▏")
        #expect(BarChart.bar(1, of: 1_000_000, width: 50, unicode: false) == "#")
        #expect(BarChart.bar(0, of: 5, width: 50, unicode: true) == "")
        // Counts too large for integer scaling are scaled in floating point, never past the width.
        let huge = Int.max / 3
        #expect(BarChart.bar(huge, of: huge, width: 20, unicode: true) == String(repeating: "█", count: 20))
        #expect(BarChart.bar(huge / 2, of: huge, width: 20, unicode: false) == String(repeating: "#", count: 10))
    }

    @Test func wideCharactersTakeTwoColumnsAndLongLabelsAreCut() {
        #expect(BarChart.displayWidth("村上春樹") == 8)
        #expect(BarChart.displayWidth("García Márquez") == 14)
        #expect(BarChart.cut("村上春樹の本棚です", to: 9, unicode: true) == "村上春樹…")
        #expect(BarChart.cut("short", to: 9, unicode: false) == "short")
        let chart = BarChart(title: "T", rows: [.init(label: "村上春樹", value: 2), .init(label: "Lem", value: 1)])
        // Labels padded by columns, so that the counts line up; 40 - 14 columns of bar.
        #expect(chart.render(.init(width: 40, unicode: false)) == """
            T
              村上春樹  2 ##########################
              Lem       1 #############

            """)
        #expect(BarChart(title: "T", rows: []).render(.init(width: 40, unicode: true), note: "None.") == "T\n  None.\n")
    }

    @Test func theWidthComesFromCOLUMNSThenTheTerminalThen80() {
        #expect(BarChart.width(environment: ["COLUMNS": "100"], terminalColumns: 50) == 100)
        #expect(BarChart.width(environment: ["COLUMNS": "abc"], terminalColumns: 50) == 50)
        #expect(BarChart.width(environment: ["COLUMNS": "3"], terminalColumns: nil) == 80)
        #expect(BarChart.width(environment: [:], terminalColumns: nil) == 80)
    }
}
