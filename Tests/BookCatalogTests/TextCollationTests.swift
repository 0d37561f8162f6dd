import Foundation
import Testing

@testable import BookCatalog

/// ``TextCollation``'s keys: the rules each language's tests through `books` rely on, and the
/// cases at their edges.
@Suite struct TextCollationTests {
    static func sorted(_ texts: [String], _ locale: String, titles: Bool = false) -> [String] {
        guard let collation = TextCollation(localeIdentifier: locale) else { return texts }
        return texts.map { (titles ? collation.sortKey(title: $0) : collation.sortKey($0), $0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
    }

    @Test func theCLocaleHasNoCollation() {
        #expect(TextCollation(localeIdentifier: UserEnvironment.posixLocaleIdentifier) == nil)
        #expect(UserEnvironment(environment: ["LANG": "C"]).collation == nil)
        #expect(UserEnvironment(environment: [:]).collation == nil)
        #expect(UserEnvironment(environment: ["LANG": "sv_SE.UTF-8"]).collation?.language == "sv")
        #expect(UserEnvironment(environment: ["LANG": "sv_SE.UTF-8", "LC_COLLATE": "C"]).collation == nil)
        #expect(UserEnvironment(environment: ["LC_COLLATE": "tr_TR", "LANG": "C"]).collation?.language == "tr")
    }

    @Test func caseDoesNotCountAndAccentsCountOnlyBetweenTheSameLetters() {
        let root = TextCollation(localeIdentifier: "en_US")
        #expect(root?.sortKey("Émile") == root?.sortKey("émile"))
        #expect(root?.sortKey("EMMA") == root?.sortKey("emma"))
        #expect(Self.sorted(["côte", "cote", "Coter"], "fr_FR") == ["cote", "côte", "Coter"])
        // Spaces, then punctuation, then digits, then letters; a prefix first.
        #expect(Self.sorted(["b", "a b", "ab", "a-b", "a1", "a"], "en") == ["a", "a b", "a-b", "a1", "ab", "b"])
        // Decomposed and precomposed text are the same text.
        let sv = TextCollation(localeIdentifier: "sv_SE")
        #expect(sv?.sortKey("A\u{30A}sa") == sv?.sortKey("Åsa"))
        #expect(Self.sorted(["Ösa", "A\u{30A}sa", "Zorn"], "sv") == ["Zorn", "A\u{30A}sa", "Ösa"])
    }

    @Test func rootLettersWithoutDecompositionSortAsTheirBase() {
        #expect(Self.sorted(["Strauch", "Straße", "Strasbourg"], "de_DE") == ["Strasbourg", "Straße", "Strauch"])
        #expect(Self.sorted(["Lwów", "Łódź", "Lodz"], "en") == ["Lodz", "Łódź", "Lwów"])
        #expect(Self.sorted(["Lwów", "Łódź", "Lodz"], "pl") == ["Lodz", "Lwów", "Łódź"])
    }

    @Test func turkishCapitalsFollowTheirOwnLetters() {
        let tr = TextCollation(localeIdentifier: "tr_TR")
        #expect(tr?.sortKey("IRMAK") == tr?.sortKey("ırmak"))
        #expect(tr?.sortKey("İNCE") == tr?.sortKey("ince"))
        #expect(tr?.sortKey("I\u{307}nce") == tr?.sortKey("ince"))
        // Elsewhere I is the capital of i.
        let en = TextCollation(localeIdentifier: "en")
        #expect(en?.sortKey("IRMAK") == en?.sortKey("irmak"))
    }

    @Test func articlesAreSkippedOnlyBeforeMoreWords() {
        #expect(TextCollation.droppingArticle("The Hobbit", articles: ["the"]) == "Hobbit")
        #expect(TextCollation.droppingArticle("  the   Hobbit", articles: ["the"]) == "Hobbit")
        #expect(TextCollation.droppingArticle("The", articles: ["the"]) == "The")
        #expect(TextCollation.droppingArticle("The ", articles: ["the"]) == "The ")
        #expect(TextCollation.droppingArticle("Theory", articles: ["the"]) == "Theory")
        #expect(TextCollation.droppingArticle("L'Étranger", articles: ["l'"]) == "Étranger")
        #expect(TextCollation.droppingArticle("l’Étranger", articles: ["l'"]) == "Étranger")
        #expect(TextCollation.droppingArticle("L'", articles: ["l'"]) == "L'")
        #expect(TextCollation.droppingArticle("Lola", articles: ["l'"]) == "Lola")
        #expect(TextCollation.droppingArticle("An Ode", articles: ["a", "an"]) == "Ode")
        // Polish and Turkish have no articles; a language without a list skips none.
        let pl = TextCollation(localeIdentifier: "pl_PL")
        #expect(pl?.sortKey(title: "The Witcher") == pl?.sortKey("The Witcher"))
    }

    @Test func everyTextHasAKeyWithoutCrashing() {
        let collation = TextCollation(localeIdentifier: "tr")
        for text in ["", " ", "\u{0}", "\u{301}", "🙂🙂", "\u{10FFFF}", "ﬁ", "Ⅻ", "١٢٣", "한국어", "\r\n", "İ\u{301}"] {
            #expect(collation?.sortKey(text) != nil)
        }
        // Digits of any script sort by value.
        #expect(Self.sorted(["٣", "2", "١"], "en") == ["١", "2", "٣"])
    }
}
