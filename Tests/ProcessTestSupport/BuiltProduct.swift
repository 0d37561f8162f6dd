import Foundation

/// Where the tests find the package and the executables it builds: one search, for every
/// test target that runs `books`, `persistence-tool` or `persistence-codegen`.
public enum BuiltProduct {
    /// The package's root directory, from this file's path.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built executable called `name`: in the products directory beside the test bundle
    /// (where `swift test` and `swift build --build-tests` put both), or in the package's
    /// `.build/debug` or `.build/release`.
    ///
    /// - Throws: ``NotFound``, naming every directory searched.
    public static func executable(named name: String) throws -> URL {
        var directories: [URL] = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        if let executable = Bundle.main.executableURL {
            directories.append(executable.deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        directories.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        let build = repositoryRoot.appendingPathComponent(".build")
        directories += ["debug", "release"].map { build.appendingPathComponent($0) }
        for directory in directories {
            let candidate = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        throw NotFound(name: name, searched: directories.map(\.path))
    }

    /// An executable that is in none of the places searched.
    public struct NotFound: Error, CustomStringConvertible {
        /// The executable's name.
        public var name: String
        /// The directories looked in, in order.
        public var searched: [String]

        public var description: String {
            "\(name) was not found; looked in " + searched.joined(separator: ", ")
        }
    }
}
