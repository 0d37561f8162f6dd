/// Whether canonical text contains a canonical needle, straight from UTF-8 bytes: what a
/// store's SQL function asks of every row a search or a `CONTAINS[cd]` passes over.
extension CanonicalText {
    /// Whether the canonical form of the UTF-8 text `text` contains `needle`, UTF-8 text that
    /// is already canonical (the fold of a search word, or of a `CONTAINS[cd]` string):
    /// `fold(text).contains(needle)` by bytes, as `instr` compares, without making a
    /// `String` for the usual text.
    ///
    /// Text that is all ASCII is compared in place: its fold only lower-cases letters and
    /// collapses white space, so a needle without a space is found by comparing each byte
    /// lower-cased. Any other text (or a needle with a space) is folded first. An empty
    /// needle is contained in any text, as `instr` finds it.
    package static func foldedText(utf8 text: UnsafeRawBufferPointer, contains needle: UnsafeRawBufferPointer) -> Bool {
        if needle.isEmpty { return true }
        if isASCII(text) {
            guard isASCII(needle) else { return false }
            if !needle.contains(where: isASCIISpace) { return firstOffset(of: needle, in: text, lowercasing: true) != nil }
        }
        var folded = fold(utf8: text)
        return folded.withUTF8 { firstOffset(of: needle, in: UnsafeRawBufferPointer($0), lowercasing: false) != nil }
    }

    /// The first offset of `needle` (not empty) in `text`, each byte of `text` lower-cased
    /// (ASCII) first when `lowercasing`.
    private static func firstOffset(
        of needle: UnsafeRawBufferPointer, in text: UnsafeRawBufferPointer, lowercasing: Bool
    ) -> Int? {
        let count = needle.count
        guard count <= text.count else { return nil }
        let first = needle[0]
        var index = 0
        let last = text.count - count
        while index <= last {
            let byte = lowercasing ? lowercased(text[index]) : text[index]
            if byte == first {
                var matched = 1
                while matched < count {
                    let next = lowercasing ? lowercased(text[index + matched]) : text[index + matched]
                    if next != needle[matched] { break }
                    matched += 1
                }
                if matched == count { return index }
            }
            index += 1
        }
        return nil
    }
}
