import Foundation

/// A file that `books` ships beside its binary, found where a build or an install put it.
///
/// SwiftPM copies each target's resources into a folder named `<package>_<target>.resources`
/// next to the products it builds, and its generated `Bundle.module` looks for that folder
/// next to the running binary and then in the build folder, calling `fatalError` when both
/// are gone (a binary copied elsewhere, its build folder removed) and reaching `Bundle.main`,
/// which traps when the binary's folder cannot be read. The catalogue's resources (this
/// target's seed file and BookCatalog's model) are found here instead, without `Bundle`,
/// and a missing one is an error that says where it looked:
///
/// 1. next to the running binary (`/proc/self/exe`, links resolved): a build folder, or an
///    install that copied the resource folders beside the binary;
/// 2. `../share/books/` from the binary's folder: an install under a prefix
///    (`/usr/local/bin/books` and `/usr/local/share/books/books_SeedData.resources`).
public struct InstalledResource: Sendable {
    /// The resource folder SwiftPM makes for a target: `books_SeedData.resources`.
    public var folder: String
    /// The file or directory inside it: `books.json`.
    public var name: String

    /// A resource of `target` (a target of this package) named `name`.
    public init(target: String, name: String) {
        folder = "books_\(target).resources"
        self.name = name
    }

    /// The folders searched, in order: the running binary's own, then its `../share/books`.
    public static var searchedFolders: [URL] {
        guard let binary = runningBinary else { return [] }
        let folder = binary.deletingLastPathComponent()
        return [folder, folder.deletingLastPathComponent().appendingPathComponent("share/books", isDirectory: true)]
    }

    /// The resource's location: the first of ``searchedFolders`` that holds it.
    ///
    /// - Throws: ``MissingResourceError`` naming the resource and every folder searched.
    public func url() throws -> URL {
        let folders = Self.searchedFolders
        for folder in folders {
            let candidate = folder.appendingPathComponent(self.folder).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        throw MissingResourceError(resource: "\(self.folder)/\(name)", searched: folders.map(\.path))
    }

    /// The running binary, its links resolved; nil where `/proc` is not mounted and the
    /// first argument names no file.
    static let runningBinary: URL? = {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        guard let first = CommandLine.arguments.first, first.contains("/") else { return nil }
        return URL(fileURLWithPath: first).resolvingSymlinksInPath()
    }()
}
