import Foundation
import PersistenceModel
import Testing

/// `CanonicalText.foldedText(utf8:contains:)`, the in-place match a store's SQL function runs
/// on every row, answers as folding the text and looking for the needle's bytes does
/// (`fold(text).utf8` containing `needle`), the ASCII fast path included.
@Suite struct CanonicalTextContainsTests {
    static let texts = [
        "", "Tolstoy", "LEV TOLSTOY", "Lev Tolstoï", "  War\tand \n Peace  ", "Die Straße der Ölsardinen",
        "Łódź Nights", "Ångström", "Ｆｕｌｌ Ｗｉｄｔｈ", "Cien años de soledad", "Boring", "a\u{00AD}b", "e\u{301}",
        "Ἀθῆναι", "東京", "tab\tin", "x", "AAAAB", "the ring of the rings", "\u{1}ctrl", "100%_done",
    ]
    static let needles = [
        "", "tolstoy", "tolstoi", "TOLSTOY", "war and", "and peace", "war  and", "strasse", "ss", "lodz", "a",
        "angstrom", "full width", "wid", "anos", "oring", "ab", "e", "αθην", "東", "tab in", " ", "aab", "rings",
        "\u{1}", "%_", "é", "zz", "peace ",
    ]

    @Test func inPlaceMatchAgreesWithFoldingFirst() {
        for text in Self.texts {
            for raw in Self.needles {
                let needle = CanonicalText.fold(raw)
                let expected = needle.isEmpty || Self.contains(Array(CanonicalText.fold(text).utf8), Array(needle.utf8))
                var text = text
                var folded = needle
                let found = text.withUTF8 { t in
                    folded.withUTF8 { n in
                        CanonicalText.foldedText(utf8: UnsafeRawBufferPointer(t), contains: UnsafeRawBufferPointer(n))
                    }
                }
                #expect(found == expected, "\(text.debugDescription) contains \(needle.debugDescription)")
            }
        }
    }

    @Test func aNeedleWithASpaceMatchesAcrossCollapsedWhiteSpace() {
        var text = "  War\t\tand   Peace "
        var needle = "war and peace"
        let found = text.withUTF8 { t in
            needle.withUTF8 { CanonicalText.foldedText(utf8: UnsafeRawBufferPointer(t), contains: UnsafeRawBufferPointer($0)) }
        }
        #expect(found)
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
