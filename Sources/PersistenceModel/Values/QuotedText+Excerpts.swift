extension QuotedText {
    /// How many characters of an input value an error message quotes: enough to recognise
    /// the value, short enough that a 100,000-digit number or a 120 KB predicate leaves the
    /// message one readable line.
    package static let excerptLength = 80

    /// `text` as an error message quotes it, cut to ``excerptLength`` characters: at most
    /// that many characters of the value, then `…` when the value is longer; control
    /// characters escaped as ``forMessage(_:)`` does.
    package static func excerpt(_ text: String, limit: Int = excerptLength) -> String {
        guard text.utf8.count > limit, text.count > limit else { return forMessage(text) }
        return forMessage(String(text.prefix(max(limit - 1, 1)))) + "…"
    }

    /// `text` double-quoted and escaped as ``doubleQuoted(_:)`` does, cut to ``excerptLength``
    /// characters with `…` inside the quotes when longer: a string value from a file, quoted
    /// in an error message, keeps the message one short line however long the value is.
    package static func doubleQuotedExcerpt(_ text: String, limit: Int = excerptLength) -> String {
        guard text.utf8.count > limit, text.count > limit else { return doubleQuoted(text) }
        let quoted = doubleQuoted(String(text.prefix(max(limit - 1, 1))))
        return quoted.dropLast() + "…\""
    }

    /// About ``excerptLength`` characters of `text` around the character offset `position`,
    /// with `…` where text was left out on either side; the escaped excerpt and the
    /// position of `position` within it (for a message that points at a character).
    package static func excerpt(_ text: String, around position: Int, limit: Int = excerptLength)
        -> (text: String, position: Int)
    {
        let count = text.count
        guard count > limit else { return (forMessage(text), position) }
        let start = min(max(position - limit / 2, 0), max(count - limit, 0))
        let end = min(start + limit, count)
        let from = text.index(text.startIndex, offsetBy: start)
        let to = text.index(from, offsetBy: end - start)
        let lead = start > 0 ? "…" : ""
        let shown = lead + forMessage(String(text[from..<to])) + (end < count ? "…" : "")
        return (shown, position - start + lead.count)
    }

    /// `items` joined with `separator`, at most `limit` of them, then "… and 4,312 more":
    /// a list in a message stays short however many items there are.
    package static func list(_ items: [String], separator: String = ", ", limit: Int = 5) -> String {
        guard items.count > limit else { return items.joined(separator: separator) }
        let more = items.count - limit
        return items.prefix(limit).joined(separator: separator) + separator
            + "… and \(grouped(more)) more"
    }

    /// A count with `,` between groups of three digits ("4,312"), whatever the locale: an
    /// error message is not localised.
    package static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }
}
