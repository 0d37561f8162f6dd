import CommandLineSupport
import Foundation
import Persistence

/// Where the catalogue's SQLite file lives, or the PostgreSQL database that holds it
/// (`postgresql://user@host:port/database`, in the option or in `BOOKS_STORE`).
///
/// The first of these that is set and not empty wins:
/// 1. the `--store PATH` option;
/// 2. the `BOOKS_STORE` environment variable;
/// 3. `$XDG_DATA_HOME/books/Books.sqlite`, when `XDG_DATA_HOME` is an absolute path (the XDG
///    Base Directory specification says a relative value is invalid and must be ignored);
/// 4. `$HOME/.local/share/books/Books.sqlite`;
/// 5. the same under the home directory of the user's password entry, when `HOME` is unset.
///
/// A leading `~/` in the option or in `BOOKS_STORE` is expanded with `HOME` (the shell does
/// not expand it in `--store=~/x` nor in a quoted value); a relative path is taken from the
/// current directory.
enum StorePath {
    /// The file name of the store inside the data directory.
    static let fileName = "Books.sqlite"
    /// The folder created for the store inside the data directory.
    static let folderName = "books"

    /// Resolves the store's location from the `--store` option and the environment.
    ///
    /// - Parameters:
    ///   - option: the `--store` value, or `nil` when it was not given.
    ///   - environment: the process environment (pass `ProcessInfo.processInfo.environment`).
    /// - Returns: a file URL; its folder may not exist yet.
    static func resolve(option: String?, environment: [String: String]) -> URL {
        let home = nonEmpty(environment["HOME"])
        if let option = nonEmpty(option) {
            return serverURL(option) ?? fileURL(expandingTilde(option, home: home))
        }
        if let path = nonEmpty(environment["BOOKS_STORE"]) {
            return serverURL(path) ?? fileURL(expandingTilde(path, home: home))
        }
        return defaultURL(environment: environment)
    }

    /// Where the store lives when neither `--store` nor `BOOKS_STORE` names it: the one
    /// location whose directory `books` creates itself (a directory the user named must
    /// exist).
    static func defaultURL(environment: [String: String]) -> URL {
        let home = nonEmpty(environment["HOME"])
        if let dataHome = nonEmpty(environment["XDG_DATA_HOME"]), dataHome.hasPrefix("/") {
            return fileURL(dataHome, isDirectory: true).appending(path: folderName)
                .appending(path: fileName)
        }
        let homeURL =
            home.map { fileURL($0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return homeURL.appending(path: ".local/share").appending(path: folderName)
            .appending(path: fileName)
    }

    /// The help text of `--store`, naming the rule above.
    static let helpText =
        "The catalogue store: a file path, or a postgresql://user@host:port/db URL in a build with the "
        + "PostgreSQL trait (default: $BOOKS_STORE, else $XDG_DATA_HOME/books/Books.sqlite, "
        + "else ~/.local/share/books/Books.sqlite)."

    /// A `postgresql://` (or `postgres://`) store's URL, kept as written (see
    /// `ServerStoreURL`); nil for a file path.
    private static func serverURL(_ text: String) -> URL? {
        guard ServerStoreURL.isServer(text) else { return nil }
        return URL(string: text)
    }

    // MARK: - Internals

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    private static func expandingTilde(_ path: String, home: String?) -> String {
        guard let home, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }

    private static func fileURL(_ path: String, isDirectory: Bool = false) -> URL {
        URL(fileURLWithPath: path, isDirectory: isDirectory).standardizedFileURL
    }
}

extension StorePath {
    /// The variable among `BOOKS_STORE`, `XDG_DATA_HOME` and `HOME` whose value is not
    /// UTF-8 and went into `storeURL`, or nil.
    ///
    /// Such a value reaches `environment` with U+FFFD in place of its bad bytes, so the
    /// store it names would be another file than the user's: the command is refused (65)
    /// rather than create or change that other file. A bad variable that the path does not
    /// use (a `HOME` when `--store` names the file) is no reason to refuse.
    static func variableNotUTF8(in storeURL: URL, environment: [String: String])
        -> InvalidEnvironmentEncodingError?
    {
        for name in ["BOOKS_STORE", "XDG_DATA_HOME", "HOME"] {
            guard let error = ProcessEnvironment.invalidUTF8Value(of: name),
                let decoded = nonEmpty(environment[name]),
                storeURL.path.contains(decoded.trimmingCharacters(in: CharacterSet(charactersIn: "/")))
            else { continue }
            return error
        }
        return nil
    }

    /// `BOOKS_STORE`'s value when it ends with `/` and named `storeURL`: a trailing slash says
    /// "a directory", which the file URL would silently drop (`x.sqlite/` becoming the file
    /// `x.sqlite`), so it is refused as `--store x.sqlite/` is.
    static func directoryVariable(in storeURL: URL, environment: [String: String]) -> String? {
        guard let value = nonEmpty(environment["BOOKS_STORE"]), value.hasSuffix("/"),
            fileURL(expandingTilde(value, home: nonEmpty(environment["HOME"]))) == storeURL
        else { return nil }
        return value
    }
}
