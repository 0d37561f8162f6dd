import Foundation
import Testing

import Persistence

@Suite struct CanonicalTextTests {
    @Test(arguments: [
        ("Łódź", "lodz"),
        ("Straße", "strasse"),
        ("Ærø", "aero"),
        ("Œuvre", "oeuvre"),
        ("CAFÉ", "cafe"),
        ("Cien años de soledad", "cien anos de soledad"),
        ("İstanbul", "istanbul"),
        ("ＡＢＣ", "abc"),
        ("Tiếng Việt", "tieng viet"),
        ("Ἀθῆναι", "αθηναι"),
        ("Ёлка", "елка"),
        ("Йошкар-Ола", "иошкар-ола"),
        ("ﬁn", "fin"),
        ("Dvořák: Slovanské tance", "dvorak: slovanske tance"),
        ("Gabriel García Márquez", "gabriel garcia marquez"),
        ("Þórbergur Þórðarson", "thorbergur thordarson"),
        ("Đorđe Balašević", "dorde balasevic"),
        ("Ħal Qormi", "hal qormi"),
        ("DİYARBAKIR ılık", "diyarbakir ilik"),
        ("Paral·lel Ŀ", "paral·lel l"),
        ("ΟΔΥΣΣΕΥΣ Οδυσσεύς", "οδυσσευσ οδυσσευσ"),
        ("ẞ", "ss"),
    ])
    func foldsToTheCanonicalForm(text: String, expected: String) {
        #expect(CanonicalText.fold(text) == expected)
    }

    @Test func everyQueryOfTheIssueFoldsIntoItsTitleAndNearMissesDoNot() {
        let found = [
            ("lodz", "Łódź"), ("strasse", "Straße"), ("aero", "Ærø"), ("oeuvre", "Œuvre"), ("cafe", "CAFÉ"),
            ("anos", "Cien años de soledad"), ("istanbul", "İstanbul"), ("abc", "ＡＢＣ"),
            ("tieng viet", "Tiếng Việt"), ("αθηναι", "Ἀθῆναι"), ("елка", "Ёлка"),
            ("LÓDZ", "Łódź"), ("ÆRØ", "aero"), ("ＴＩＥＮＧ", "Tiếng Việt"),
        ]
        for (query, title) in found {
            #expect(CanonicalText.fold(title).contains(CanonicalText.fold(query)), "\(query) → \(title)")
        }
        let missed = [
            ("lodzz", "Łódź"), ("strase", "Straße"), ("aeroe", "Ærø"), ("cafés", "CAFÉ"),
            ("istambul", "İstanbul"), ("abcd", "ＡＢＣ"), ("αθηνε", "Ἀθῆναι"), ("елки", "Ёлка"),
            ("tiengviet", "Tiếng Việt"),
        ]
        for (query, title) in missed {
            #expect(!CanonicalText.fold(title).contains(CanonicalText.fold(query)), "\(query) ↛ \(title)")
        }
    }

    @Test func keepsPunctuationAsItIs() {
        let text = "Hello, World! (2nd ed.) — ‘quoted’ «guillemets» #1 50% a/b & c"
        #expect(CanonicalText.fold(text) == text.lowercased())
        #expect(CanonicalText.fold("Rock´n´Roll ¨") == "rock´n´roll ¨")
    }

    @Test func collapsesWhiteSpaceToSingleSpacesAndTrims() {
        #expect(CanonicalText.fold("  Hello \t\n World  ") == "hello world")
        #expect(CanonicalText.fold("a\u{00A0}\u{3000}b\u{2003}c\r\nd") == "a b c d")
        #expect(CanonicalText.fold(" \t ") == "")
        #expect(CanonicalText.fold("") == "")
        #expect(CanonicalText.fold("  Łódź  ") == "lodz")
    }

    @Test func removesInvisibleFormatCharacters() {
        #expect(CanonicalText.fold("Sol\u{00AD}ve\u{200B}ig") == "solveig")
        #expect(CanonicalText.fold("\u{FEFF}Title") == "title")
    }

    @Test func foldsCompatibilityForms() {
        #expect(CanonicalText.fold("Ｔｏｋｙｏ ２０２０") == "tokyo 2020")
        #expect(CanonicalText.fold("ﬂower ﬀ") == "flower ff")
        #expect(CanonicalText.fold("①™…") == "1tm...")
    }

    @Test func handlesTextThatExpandsOrIsLong() {
        // U+FDFA decomposes to 18 scalars (33 bytes) from 3 bytes.
        let ligature = "صلى الله عليه وسلم"
        #expect(
            CanonicalText.fold(String(repeating: "ﷺ", count: 3))
                == String(repeating: ligature, count: 3))
        #expect(CanonicalText.fold("a ﷺ b") == "a \(ligature) b")
        let long = String(repeating: "Łódź Ἀθῆναι ", count: 400)
        #expect(
            CanonicalText.fold(long)
                == String(repeating: "lodz αθηναι ", count: 400).dropLast())
    }

    @Test func leavesIdeographsKanaAndHangulUnchanged() {
        for text in ["東京物語", "ノルウェイの森 が ぱ", "한국어 채식주의자", "红楼梦"] {
            #expect(CanonicalText.fold(text) == text)
        }
    }

    @Test func decomposedInputFoldsLikeComposedInput() {
        #expect(CanonicalText.fold("Cafe\u{0301}") == CanonicalText.fold("Café"))
        #expect(CanonicalText.fold("か\u{3099}") == "が")
        #expect(CanonicalText.fold("\u{1112}\u{1161}\u{11AB}") == "한")
        #expect(CanonicalText.fold("L\u{0301}o\u{0301}dz\u{0301}") == "lodz")
        for accent in ["΅", "῍", "´"] {
            #expect(
                CanonicalText.fold(accent.decomposedStringWithCanonicalMapping)
                    == CanonicalText.fold(accent))
        }
    }

    @Test func latinLettersWithoutDecompositionFoldToTheirTable() {
        for (letter, base) in CanonicalText.latinBaseLetters {
            #expect(CanonicalText.fold(String(letter)) == base, "\(letter)")
        }
        #expect(CanonicalText.fold("ŁØÆŒÞÐĐĦŦƀɨĸŋ") == "loaeoethddhtbikn")
    }

    @Test func asciiAndUnicodePathsAgree() {
        var generator = SplitMix64(seed: 7)
        let alphabet = Array("aZ \t\n,.-Q9xY".utf8)
        for _ in 0..<500 {
            let length = Int.random(in: 0..<24, using: &generator)
            let ascii = String(
                decoding: (0..<length).map { _ in alphabet.randomElement(using: &generator)! },
                as: UTF8.self)
            // "é" takes the Unicode path and folds to "e", which takes the ASCII path.
            #expect(CanonicalText.fold(ascii + "é") == CanonicalText.fold(ascii + "e"))
            #expect(CanonicalText.fold("é" + ascii) == CanonicalText.fold("e" + ascii))
        }
    }

    @Test func foldingIsIdempotentAndLeavesNoCapitalsOrDiacritics() {
        let ranges: [ClosedRange<UInt32>] = [
            0x00A0...0x024F, 0x0370...0x052F, 0x1E00...0x1FFF, 0x2000...0x214F,
            0xFB00...0xFB4F, 0xFF00...0xFFEF,
        ]
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let once = CanonicalText.fold(String(scalar))
                #expect(CanonicalText.fold(once) == once, "U+\(String(value, radix: 16))")
                for part in once.unicodeScalars {
                    #expect(!CanonicalText.isDiacritic(part), "U+\(String(value, radix: 16))")
                    #expect(!part.properties.changesWhenLowercased, "U+\(String(value, radix: 16))")
                }
            }
        }
    }

    @Test func rawUTF8FoldingReplacesIllFormedBytes() {
        let bytes: [UInt8] = [0x41, 0xFF, 0x62, 0xC3, 0xA9, 0xED, 0xA0, 0x80, 0x63, 0xC3]
        let folded = bytes.withUnsafeBytes { CanonicalText.fold(utf8: $0) }
        #expect(folded == "a\u{FFFD}be\u{FFFD}\u{FFFD}\u{FFFD}c\u{FFFD}")
        let text = Array("Dvořák".utf8)
        #expect(text.withUnsafeBytes { CanonicalText.fold(utf8: $0) } == "dvorak")
    }

    @Test func foldsLettersThatFoundationFoldingLeavesAlone() {
        // Foundation leaves Ł, Ø and full-width forms alone; search must not.
        let foundation = "Łódź Ø ＡＢＣ".folding(
            options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        #expect(foundation != "lodz o abc")
        #expect(CanonicalText.fold("Łódź Ø ＡＢＣ") == "lodz o abc")
    }

    @Test func concurrentFoldsAgreeWithSequentialOnes() async {
        let texts = ["Ἀθῆναι", "Łódź", "Ёлка", "東京", "Tiếng Việt", "ＡＢＣ", "한국어", "עִבְרִית"]
        let expected = texts.map(CanonicalText.fold)
        await withTaskGroup(of: Bool.self) { group in
            for round in 0..<8 {
                group.addTask {
                    (0..<200).allSatisfy { index in
                        let position = (index + round) % texts.count
                        return CanonicalText.fold(texts[position]) == expected[position]
                    }
                }
            }
            for await agreed in group { #expect(agreed) }
        }
    }

    @Test func removesHebrewPointsButKeepsLetters() {
        #expect(CanonicalText.fold("עִבְרִית") == "עברית")
    }
}
