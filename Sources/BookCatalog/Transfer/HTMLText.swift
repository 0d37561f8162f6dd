import Foundation

/// The text of an HTML fragment, as other catalogues store descriptions (calibre's
/// `comments`): tags removed, paragraphs kept as line breaks, entities decoded.
///
/// Not an HTML parser, and needs not be one: the result is only ever text for a review or
/// notes, never markup. Block elements (`p`, `div`, `li`, headings, `blockquote`, `tr`)
/// end a paragraph, `<br>` a line; white space inside a paragraph collapses to one space,
/// as a browser shows it; the content of `script` and `style` is dropped; a `<` that does
/// not begin a tag (`1 < 2`) is kept as text.
enum HTMLText {
    /// The text of `html`, paragraphs separated by a blank line, trimmed.
    static func plainText(_ html: String) -> String {
        var paragraphs: [String] = []
        var line = ""
        var lines: [String] = []
        func endLine() {
            lines.append(line.trimmingCharacters(in: .whitespaces))
            line = ""
        }
        func endParagraph() {
            endLine()
            let text = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { paragraphs.append(text) }
            lines = []
        }
        var index = html.startIndex
        var skipping: String?  // inside <script> or <style>
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let (name, closing, end) = tag(in: html, at: index) {
                index = end
                if let element = skipping {
                    if closing && name == element { skipping = nil }
                    continue
                }
                if !closing && (name == "script" || name == "style") {
                    skipping = name
                } else if name == "br" {
                    endLine()
                } else if blockElements.contains(name) {
                    endParagraph()
                }
                continue
            }
            index = html.index(after: index)
            if skipping != nil { continue }
            if character == "&", let (decoded, end) = entity(in: html, at: index) {
                line.append(decoded)
                index = end
            } else if character.isWhitespace {
                if !line.isEmpty && line.last != " " { line.append(" ") }
            } else {
                line.append(character)
            }
        }
        endParagraph()
        return paragraphs.joined(separator: "\n\n")
    }

    /// Whether `text` looks like HTML: it has a tag such as `<p>`, `</div>` or `<br/>`.
    static func looksLikeHTML(_ text: String) -> Bool {
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: "<") {
            if tag(in: text, at: open) != nil { return true }
            index = text.index(after: open)
        }
        return false
    }

    // MARK: - Internals

    /// Elements whose start and end begin a new paragraph.
    private static let blockElements: Set<String> = [
        "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "tr", "table",
        "section", "article", "pre", "hr", "dd", "dt", "dl",
    ]

    /// The tag that begins at `start` (a `<`): its element's name in lower case, whether it
    /// closes one, and the index after its `>`; nil when `<` does not begin a tag (a letter
    /// or `/` then a letter must follow, and a `>` must end it before any other `<`) or
    /// begins a comment, which is skipped whole as a nameless tag.
    private static func tag(in text: String, at start: String.Index) -> (String, Bool, String.Index)? {
        var index = text.index(after: start)
        if text[index...].hasPrefix("!--") {
            // An unclosed comment runs to the end, as a browser reads it.
            let end = text.range(of: "-->", range: index..<text.endIndex)?.upperBound ?? text.endIndex
            return ("!--", false, end)
        }
        let closing = index < text.endIndex && text[index] == "/"
        if closing { index = text.index(after: index) }
        let nameStart = index
        while index < text.endIndex, text[index].isASCII, text[index].isLetter || text[index].isNumber {
            index = text.index(after: index)
        }
        guard index > nameStart, text[nameStart].isLetter else { return nil }
        let name = text[nameStart..<index].lowercased()
        // A `<` before the `>` means this one began no tag; stopping there keeps the whole
        // scan linear however many `<` the text has.
        guard let end = text[index...].firstIndex(where: { $0 == ">" || $0 == "<" }), text[end] == ">" else { return nil }
        return (name, closing, text.index(after: end))
    }

    /// The character of the entity after `&` at `start` (`amp;`, `#39;`, `#x2014;`) and the
    /// index after its `;`; nil when no known entity is there (the `&` is then text).
    private static func entity(in text: String, at start: String.Index) -> (Character, String.Index)? {
        guard let semicolon = text[start...].prefix(12).firstIndex(of: ";") else { return nil }
        let name = text[start..<semicolon]
        let end = text.index(after: semicolon)
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, let scalar = Unicode.Scalar(value), value >= 0x20 || value == 0x0A else { return nil }
            return (Character(scalar == "\u{A0}" ? " " : scalar), end)
        }
        guard let character = namedEntities[String(name)] else { return nil }
        return (character, end)
    }

    /// The named entities descriptions use.
    private static let namedEntities: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "mdash": "—",
        "ndash": "–", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "laquo": "«", "raquo": "»", "copy": "©", "reg": "®", "trade": "™", "eacute": "é",
        "egrave": "è", "aacute": "á", "agrave": "à", "ouml": "ö", "uuml": "ü", "auml": "ä",
        "szlig": "ß", "ccedil": "ç", "ntilde": "ñ", "iacute": "í", "oacute": "ó", "uacute": "ú",
    ]
}
