import Foundation
import Testing

@testable import BookCatalog

/// The values calibre and LibraryThing write, read one by one: HTML descriptions as text,
/// language codes and names as BCP 47, "Last, First" names, ratings in half stars,
/// calibre's undefined date.
@Suite struct ForeignExportValuesTests {
    @Test func htmlKeepsParagraphsAndLineBreaksAndDecodesEntities() {
        let html = """
            <div><p class="description">First  paragraph,\n spread over <b>two</b> lines.</p>
            <p>Second &amp; last &lt;paragraph&gt; &#8212; &#x2603;<br/>after a break&nbsp;here.</p>
            <script>ignored()</script><!-- a comment --><ul><li>one</li><li>two</li></ul></div>
            """
        #expect(HTMLText.plainText(html) == """
            First paragraph, spread over two lines.

            Second & last <paragraph> — ☃
            after a break here.

            one

            two
            """)
        // A `<` that begins no tag is text; text without tags is not HTML.
        #expect(HTMLText.plainText("1 < 2 and 3 > 2") == "1 < 2 and 3 > 2")
        #expect(!HTMLText.looksLikeHTML("1 < 2, a <- b"))
        #expect(HTMLText.looksLikeHTML("a<br>b") && HTMLText.looksLikeHTML("<p>x</p>"))
        // An unknown entity and a control character's reference stay as written.
        #expect(HTMLText.plainText("<p>&bogus; &#1;</p>") == "&bogus; &#1;")
    }

    /// Text of a hundred thousand `<` that begin no tag, or of unclosed comments, is read in one pass,
    /// not one pass a `<`.
    @Test func htmlOfManyUnclosedTagsIsReadInLinearTime() {
        let start = Date()
        let text = String(repeating: "<a", count: 100_000)
        #expect(HTMLText.plainText(text) == text && HTMLText.looksLikeHTML(text) == false)
        #expect(HTMLText.plainText("a<!-- never closed <p>b") == "a")
        #expect(HTMLText.looksLikeHTML(String(repeating: "<!--", count: 200_000)))
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func languageCodesAndNamesBecomeBCP47Tags() {
        #expect(LanguageCodes.tag(forCode: "eng") == "en")
        #expect(LanguageCodes.tag(forCode: "FRE") == "fr" && LanguageCodes.tag(forCode: "fra") == "fr")
        #expect(LanguageCodes.tag(forCode: "ger") == "de" && LanguageCodes.tag(forCode: "deu") == "de")
        #expect(LanguageCodes.tag(forCode: "haw") == "haw" && LanguageCodes.tag(forCode: "grc") == "grc")
        #expect(LanguageCodes.tag(forCode: "und") == nil && LanguageCodes.tag(forCode: "en") == nil)
        #expect(LanguageCodes.tag(forCode: "e1g") == nil && LanguageCodes.tag(forCode: "engl") == nil)
        #expect(LanguageCodes.tag(forName: "English") == "en" && LanguageCodes.tag(forName: " polish ") == "pl")
        #expect(LanguageCodes.tag(forName: "Castilian") == "es" && LanguageCodes.tag(forName: "Greek") == "el")
        #expect(LanguageCodes.tag(forName: "Hawaiian") == "haw" && LanguageCodes.tag(forName: "Elvish") == nil)
    }

    @Test func calibreLanguagesAreTheFirstCodeAsBCP47() throws {
        func tag(_ codes: [String]) throws -> String { try CalibreValues.language(codes, field: "languages") }
        #expect(try tag(["eng", "fra"]) == "en" && tag(["", "ger"]) == "de" && tag(["haw"]) == "haw")
        #expect(try tag([]) == "" && tag(["und"]) == "" && tag(["zxx"]) == "")
        #expect(try tag(["EN"]) == "en")
        for bad in ["english", "e", "en-GB", "12"] {
            #expect(throws: CatalogInputError.self) { try tag([bad]) }
        }
    }

    @Test func libraryThingNamesAreTurnedRound() {
        #expect(LibraryThingTSV.firstLast("Le Guin, Ursula K.") == "Ursula K. Le Guin")
        #expect(LibraryThingTSV.firstLast("King, Martin Luther, Jr.") == "Martin Luther King, Jr.")
        #expect(LibraryThingTSV.firstLast("Homer") == "Homer")
        #expect(LibraryThingTSV.firstLast("Homer, ") == "Homer")
        #expect(LibraryThingTSV.publisher("Mariner Books (2002), Paperback") == "Mariner Books")
        #expect(LibraryThingTSV.publisher("Little, Brown (2005)") == "Little, Brown")
        #expect(LibraryThingTSV.publisher("Gallimard, Folio") == "Gallimard")
    }

    @Test func calibreRatingsRoundHalfStarsUpAndRefuseTheOutOfRange() throws {
        func tenths(_ text: String) throws -> String { try CalibreValues.rating(text, field: "rating", scale: .tenths) }
        func stars(_ text: String) throws -> String { try CalibreValues.rating(text, field: "rating", scale: .halfStars) }
        #expect(try tenths("0") == "" && tenths("1") == "1" && tenths("7") == "4" && tenths("8") == "4" && tenths("10") == "5")
        #expect(try stars("0") == "" && stars("0.5") == "1" && stars("3.5") == "4" && stars("4") == "4" && stars("5") == "5")
        for bad in ["11", "-2", "4.5", "x"] { #expect(throws: CatalogInputError.self) { try tenths(bad) } }
        for bad in ["5.5", "4.25", "-1", ".5", "4,5", "1e0"] { #expect(throws: CatalogInputError.self) { try stars(bad) } }
    }

    @Test func calibreUndefinedDatesAreUnknownAndOthersAreTheirWrittenDay() throws {
        func day(_ text: String) throws -> String { try CalibreValues.publicationDay(text, field: "pubdate") }
        #expect(try day("0101-01-01T00:00:00+00:00") == "" && day("0100-12-31T19:00:00-05:00") == "")
        #expect(try day("None") == "" && day("") == "")
        #expect(try day("0101-01-02T00:00:00+00:00") == "0101-01-02")
        #expect(try day("2008-09-18T23:30:00-05:00") == "2008-09-18")
        #expect(throws: CatalogInputError.self) { try day("2008-09-18") }
        #expect(try CalibreValues.instant("2019-03-10T19:38:03.123456+00:00", field: "timestamp") == "2019-03-10T19:38:03+00:00")
        #expect(CalibreValues.authors("A && B & C & A") == ["A & B", "C", "A"])
        #expect(CalibreValues.authors(" A & B &  & A ") == ["A", "B"])
    }
}
