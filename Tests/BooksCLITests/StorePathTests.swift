import Foundation
import Testing

@testable import books

/// The `--store` / `BOOKS_STORE` / `XDG_DATA_HOME` / `HOME` rule.
@Suite struct StorePathTests {
    func resolve(_ option: String? = nil, _ environment: [String: String]) -> String {
        StorePath.resolve(option: option, environment: environment).path
    }

    @Test func optionWinsOverEverything() {
        let environment = ["BOOKS_STORE": "/env/b.sqlite", "XDG_DATA_HOME": "/xdg", "HOME": "/h"]
        #expect(resolve("/opt/a.sqlite", environment) == "/opt/a.sqlite")
    }

    @Test func booksStoreWinsOverTheDataDirectories() {
        #expect(
            resolve(nil, ["BOOKS_STORE": "/env/b.sqlite", "XDG_DATA_HOME": "/xdg"])
                == "/env/b.sqlite")
    }

    @Test func xdgDataHomeComesNext() {
        #expect(resolve(nil, ["XDG_DATA_HOME": "/xdg", "HOME": "/h"]) == "/xdg/books/Books.sqlite")
    }

    @Test func relativeXDGDataHomeIsIgnoredAsTheSpecificationSays() {
        #expect(
            resolve(nil, ["XDG_DATA_HOME": "data", "HOME": "/h"])
                == "/h/.local/share/books/Books.sqlite")
    }

    @Test func homeIsTheLastVariable() {
        #expect(resolve(nil, ["HOME": "/home/ana"]) == "/home/ana/.local/share/books/Books.sqlite")
    }

    @Test func emptyVariablesCountAsUnset() {
        let environment = ["BOOKS_STORE": "", "XDG_DATA_HOME": "", "HOME": "/h"]
        #expect(resolve("", environment) == "/h/.local/share/books/Books.sqlite")
    }

    @Test func withNoHomeTheUsersHomeDirectoryIsUsed() {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        #expect(resolve(nil, [:]).hasPrefix(home))
        #expect(resolve(nil, [:]).hasSuffix("/.local/share/books/Books.sqlite"))
    }

    @Test func tildeIsExpandedWithHome() {
        #expect(resolve("~/b.sqlite", ["HOME": "/home/ana"]) == "/home/ana/b.sqlite")
        #expect(
            resolve(nil, ["BOOKS_STORE": "~/c.sqlite", "HOME": "/home/ana"]) == "/home/ana/c.sqlite"
        )
        #expect(resolve("~bob/b.sqlite", ["HOME": "/home/ana"]).hasSuffix("/~bob/b.sqlite"))
    }

    @Test func relativePathsStartAtTheCurrentDirectory() {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(resolve("x/../b.sqlite", [:]) == cwd + "/b.sqlite")
    }
}
