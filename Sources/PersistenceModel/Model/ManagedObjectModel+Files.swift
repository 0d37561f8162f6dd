import Foundation

extension ManagedObjectModel {
    /// Reads a model from an Xcode model file.
    ///
    /// `url` may be a `.xcdatamodeld` bundle (the version named by `version`, or else the
    /// current version its `.xccurrentversion` names, or its only version), a `.xcdatamodel`
    /// directory, or a `contents` file. The model is read as written and not validated: call
    /// `validate()` (or `freeze()`) to check it. See `ModelFileReader` for what is read.
    ///
    /// - Parameters:
    ///   - url: the bundle, version directory or `contents` file.
    ///   - version: a version of a bundle, as `versionNames(in:)` lists it (the
    ///     `.xcdatamodel` suffix is optional); only for bundles.
    /// - Throws: `ModelFileError` when the file or version does not exist or cannot be read;
    ///   `ModelError` naming the file and line when its XML is malformed or holds values the
    ///   model cannot represent.
    public convenience init(contentsOf url: URL, version: String? = nil) throws {
        let contentsURL = try Self.contentsURL(for: url, version: version)
        let data: Data
        do {
            // A model is a file: a FIFO or device is refused rather than waited on.
            data = try InputFile.read(contentsURL.path, regularFileOnly: true)
        } catch {
            throw ModelFileError(.unreadable, path: contentsURL.path, reason: error.reason)
        }
        let model = try ModelFileReader(file: contentsURL.path).read(data)
        self.init(
            entities: model.entities, fetchRequestTemplates: model.fetchRequestTemplates,
            configurations: model.configurations, versionIdentifier: model.versionIdentifier,
            documentAttributes: model.documentAttributes)
    }

    /// The names of the versions in a `.xcdatamodeld` bundle, without the `.xcdatamodel`
    /// suffix, in natural order ("Model", "Model2", "Model10").
    ///
    /// - Throws: `ModelFileError` when `bundle` does not exist or is not a directory.
    public static func versionNames(in bundle: URL) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: bundle.path, isDirectory: &isDirectory) else {
            throw ModelFileError(.notFound, path: bundle.path, reason: "no such file or directory")
        }
        guard isDirectory.boolValue else {
            throw ModelFileError(
                .unreadable, path: bundle.path,
                reason: "it is a file, not a .xcdatamodeld bundle")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: bundle.path)
        } catch {
            throw ModelFileError(.unreadable, path: bundle.path, reason: reason(error))
        }
        return names.filter { $0.hasSuffix(".xcdatamodel") && !$0.hasPrefix(".") }
            .map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
    }

    /// The version of a `.xcdatamodeld` bundle that its `.xccurrentversion` names, or its
    /// only version when it has no such file; `nil` when neither says.
    ///
    /// - Throws: `ModelFileError` when the bundle or its `.xccurrentversion` cannot be read.
    public static func currentVersionName(in bundle: URL) throws -> String? {
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        guard FileManager.default.fileExists(atPath: marker.path) else {
            let names = try versionNames(in: bundle)
            return names.count == 1 ? names[0] : nil
        }
        let data: Data
        do {
            data = try InputFile.read(marker.path, regularFileOnly: true)
        } catch {
            throw ModelFileError(.unreadable, path: marker.path, reason: error.reason)
        }
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
        guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
            throw ModelFileError(
                .unreadable, path: marker.path,
                reason: "it is not a property list naming _XCCurrentVersionName")
        }
        return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }

    /// Writes the model as a `.xcdatamodel` directory whose `contents` Xcode can open.
    ///
    /// The directory (and missing parents) is created; `contents` is replaced whole through
    /// `OutputFile`, so a failed or killed write leaves any earlier file whole and nothing
    /// else behind, and a device, a FIFO, an SQLite database or a read-only file in its
    /// place is refused.
    ///
    /// - Throws: `ModelFileError` when the directory or file cannot be written.
    public func write(to url: URL) throws {
        let contents = url.appendingPathComponent("contents")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ModelFileError(.unwritable, path: contents.path, reason: Self.reason(error))
        }
        do {
            let file = try OutputFile(path: contents.path)
            try file.write(xmlContents())
            try file.commit()
        } catch {
            throw ModelFileError(.unwritable, path: contents.path, reason: error.reason)
        }
    }

    /// The model as the XML of a `.xcdatamodel/contents` file, as Xcode writes it.
    public func xmlContents() -> String {
        ModelFileWriter.xml(for: self)
    }

    // MARK: - Internals

    /// The `contents` file `url` and `version` designate.
    private static func contentsURL(for url: URL, version: String?) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelFileError(.notFound, path: url.path, reason: "no such file or directory")
        }
        guard isDirectory.boolValue else {
            if version != nil { throw notABundle(url) }
            return url
        }
        guard url.pathExtension == "xcdatamodeld" else {
            if version != nil { throw notABundle(url) }
            let contents = url.appendingPathComponent("contents")
            guard FileManager.default.fileExists(atPath: contents.path) else {
                throw ModelFileError(
                    .notFound, path: contents.path,
                    reason: "the directory has no 'contents' file, so it is "
                        + "not an .xcdatamodel")
            }
            return contents
        }
        let names = try versionNames(in: url)
        let chosen: String
        if let version {
            chosen =
                version.hasSuffix(".xcdatamodel")
                ? String(version.dropLast(".xcdatamodel".count)) : version
        } else if let current = try currentVersionName(in: url) {
            chosen = current
        } else {
            throw ModelFileError(
                .unreadable, path: url.path,
                reason: "it has no .xccurrentversion to name the current version "
                    + "among \(list(names)); choose one")
        }
        guard names.contains(chosen) else {
            throw ModelFileError(
                .noSuchVersion, path: url.path,
                reason: "it has no version '\(chosen)'; its versions are \(list(names))")
        }
        return try contentsURL(
            for: url.appendingPathComponent(chosen + ".xcdatamodel"), version: nil)
    }

    private static func notABundle(_ url: URL) -> ModelFileError {
        ModelFileError(
            .unreadable, path: url.path,
            reason: "a version can only be chosen in a .xcdatamodeld bundle")
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.map { "'\($0)'" }.joined(separator: ", ")
    }

    private static func reason(_ error: Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        return (error as NSError).localizedDescription
    }
}
