import Foundation

/// A title as Goodreads writes it, with the book's series at its end in parentheses: "The
/// Fellowship of the Ring (The Lord of the Rings, #1)", "Guards! Guards! (Discworld, #8;
/// City Watch, #1)", "The Hobbit (Middle-earth Universe, #0.5)".
///
/// The series is the last parenthesised group when it ends in `#` and a number (of several
/// series separated by "; ", the first); a number such as `1-3` (an omnibus) gives the series
/// without a number. A title whose parentheses say anything else ("Dune (40th Anniversary
/// Edition)") is kept whole.
struct SeriesInTitle: Equatable {
    /// The title without the series.
    var title: String
    /// The series' name, if the title names one.
    var series: String?
    /// The number in the series as written ("1", "0.5"), if it is one number.
    var number: String?

    init(_ text: String) {
        title = text
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return }
        let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
        let first = inside.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard let hash = first.range(of: "#", options: .backwards) else { return }
        let name = first[..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
            .trimmingCharacters(in: CharacterSet(charactersIn: ","))
            .trimmingCharacters(in: .whitespaces)
        let number = first[hash.upperBound...].trimmingCharacters(in: .whitespaces)
        let rest = text[..<open].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !rest.isEmpty, let digit = number.first, digit.isASCII, digit.isNumber else { return }
        title = rest
        series = name
        let isOneNumber = number.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
            && number.filter { $0 == "." }.count <= 1 && number.last != "."
        self.number = isOneNumber ? number : nil
    }
}
