import Foundation
import Persistence
import ProcessTestSupport
import Testing

/// A real model file under `shared/models`: a path and, for a bundle, a version.
package struct ModelFixture: Sendable, CustomTestStringConvertible {
    package var url: URL
    package var version: String?

    package init(url: URL, version: String? = nil) {
        self.url = url
        self.version = version
    }

    /// The `contents` file this fixture reads.
    package var contentsURL: URL {
        let directory = version.map { url.appendingPathComponent("\($0).xcdatamodel") } ?? url
        return directory.appendingPathComponent("contents")
    }

    package func load() throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: url, version: version)
    }

    package var testDescription: String { url.lastPathComponent + (version.map { " " + $0 } ?? "") }
}

/// Where the shared model files are, and helpers to write small ones.
package enum ModelFixtures {
    /// Real Xcode models from other projects (MIT-licensed; licences beside them), copied
    /// into `Tests/Fixtures/models` so the tests need nothing outside the repository (set
    /// `PERSISTENCE_SHARED_MODELS` to test another folder of the same shape).
    package static let sharedModels: URL = {
        if let path = ProcessInfo.processInfo.environment["PERSISTENCE_SHARED_MODELS"] {
            return URL(fileURLWithPath: path)
        }
        return BuiltProduct.repositoryRoot.appendingPathComponent("Tests/Fixtures/models")
    }()

    package static let moody = sharedModels.appendingPathComponent("objcio/Moody.xcdatamodel")
    package static let sampleBundle = sharedModels.appendingPathComponent(
        "CoreDataPlus/SampleModel.xcdatamodeld")

    /// Moody, and each version of SampleModel.
    package static let realModels: [ModelFixture] = [
        ModelFixture(url: moody),
        ModelFixture(url: sampleBundle, version: "SampleModel"),
        ModelFixture(url: sampleBundle, version: "SampleModel2"),
        ModelFixture(url: sampleBundle, version: "SampleModel3"),
    ]

    /// How many `<entity>`, `<attribute>` and `<relationship>` elements the XML holds.
    package static func elementCounts(in xml: String) -> (
        entities: Int, attributes: Int, relationships: Int
    ) {
        func count(_ tag: String) -> Int { xml.components(separatedBy: "<\(tag) ").count - 1 }
        return (count("entity"), count("attribute"), count("relationship"))
    }

    /// A fresh temporary directory.
    package static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("model-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `xml` as the `contents` of a new `.xcdatamodel`; returns the `contents` file.
    package static func writeContents(_ xml: String) throws -> URL {
        let directory = try temporaryDirectory().appendingPathComponent("Test.xcdatamodel")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("contents")
        try Data(xml.utf8).write(to: url)
        return url
    }

    /// Reads a model from `<model attributes>entities</model>`.
    package static func model(attributes: String = "", entities: String) throws -> ManagedObjectModel {
        let url = try writeContents(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model \(attributes)>\n"
                + entities + "\n</model>\n")
        defer { removeContents(url) }
        return try ManagedObjectModel(contentsOf: url)
    }

    /// Removes the temporary directory that `writeContents` made for `contents`.
    package static func removeContents(_ contents: URL) {
        try? FileManager.default.removeItem(at: contents.deletingLastPathComponent().deletingLastPathComponent())
    }

    /// Expects that writing and reading `model` gives an equal model with equal hashes.
    package static func expectRoundTrip(
        _ model: ManagedObjectModel, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let reread = try ModelFileReader(file: "round trip").read(Data(model.xmlContents().utf8))
        #expect(reread == model, sourceLocation: sourceLocation)
        #expect(
            reread.entityVersionHashesByName == model.entityVersionHashesByName,
            sourceLocation: sourceLocation)
    }
}
