import Foundation
import PackagePlugin

/// Runs `persistence-codegen` on every `.xcdatamodeld` bundle (and every `.xcdatamodel` not
/// inside one) in a target, as Xcode's Codegen does: the generated Swift goes into the
/// plugin's work directory and is compiled with the target, never into the source tree.
///
/// Every file of the bundle is an input, so editing the model (or switching its current
/// version) regenerates the code on the next build; an unchanged model does not. Each model
/// gives one file, `<Model>+Generated.swift`, because a build command must name its outputs
/// before the model is read.
@main
struct PersistenceCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "persistence-codegen")
        return try Self.models(in: module.directoryURL).map { model in
            let name = model.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL
                .appendingPathComponent(name, isDirectory: true)
                .appendingPathComponent("\(name)+Generated.swift")
            return .buildCommand(
                displayName: "Generating Swift for \(model.lastPathComponent)",
                executable: tool.url,
                arguments: [model.path, "--single-file", output.path],
                inputFiles: try Self.files(in: model),
                outputFiles: [output])
        }
    }

    /// The model bundles and directories under `directory`, sorted.
    static func models(in directory: URL) throws -> [URL] {
        var found: [URL] = []
        let keys: [URLResourceKey] = [.isDirectoryKey]
        guard
            let walker = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: keys)
        else { return [] }
        for case let url as URL in walker {
            switch url.pathExtension {
            case "xcdatamodeld", "xcdatamodel":
                found.append(url)
                walker.skipDescendants()
            default:
                continue
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Every regular file inside a model bundle, hidden ones (`.xccurrentversion`) included.
    static func files(in model: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: model, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in walker
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }
}
