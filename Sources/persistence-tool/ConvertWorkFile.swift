import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The hidden file beside `store convert`'s destination that the copy is written to, and
/// moved into place only when it is complete: `.<name>.converting-<UUID>.<extension>` in the
/// destination's folder, with its support folder (the files of large binary values) beside it.
///
/// Moving it in links the file under the destination's name, which fails rather than replace
/// a file that appeared there meanwhile, then unlinks the work name (on a file system without
/// hard links it is renamed, after checking the name is free): the destination never holds
/// half a store. A failed copy removes the work file, its journal and its support
/// folder; a killed one leaves only the hidden work file, never the destination.
struct ConvertWorkFile {
    /// The destination's path, as given.
    let destination: String
    /// The work file's path.
    let path: String

    init(destination: String) {
        self.destination = destination
        let url = URL(fileURLWithPath: destination)
        let stem = url.deletingPathExtension().lastPathComponent
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        path = url.deletingLastPathComponent()
            .appendingPathComponent(".\(stem).converting-\(UUID().uuidString)\(suffix)").path
    }

    /// The support folders a store at `path` may keep its large values in: Core Data's
    /// (`.<name without extension>_SUPPORT`) and the Persistence store's
    /// (`.<file name>_SUPPORT`).
    private static func supportFolders(of path: String) -> [String] {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        return [
            folder.appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT").path,
            folder.appendingPathComponent(".\(url.lastPathComponent)_SUPPORT").path,
        ]
    }

    /// Moves the complete copy to the destination: its support folder first (merged into
    /// one that exists there), then the file.
    ///
    /// - Throws: `ToolError` when the destination appeared meanwhile or cannot be written.
    func moveIntoPlace() throws {
        let files = FileManager.default
        // A closed store has written its journal back into the file; one still holding
        // pages would be left behind by the move, and the copy would lack them.
        if let size = (try? files.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int, size > 0 {
            throw ToolError(
                code: .runtimeError, message: "error: \(destination): the copy's journal was not written back into it")
        }
        for (work, final) in zip(Self.supportFolders(of: path), Self.supportFolders(of: destination))
        where files.fileExists(atPath: work) {
            if !files.fileExists(atPath: final) {
                try files.moveItem(atPath: work, toPath: final)
                continue
            }
            // Another store's folder of that name is there already: the copy's files (named
            // by UUID) join it.
            let workData = work + "/_EXTERNAL_DATA"
            let finalData = final + "/_EXTERNAL_DATA"
            try files.createDirectory(atPath: finalData, withIntermediateDirectories: true)
            for name in (try? files.contentsOfDirectory(atPath: workData)) ?? [] {
                try files.moveItem(atPath: workData + "/" + name, toPath: finalData + "/" + name)
            }
            try? files.removeItem(atPath: work)
        }
        if link(path, destination) != 0 {
            let failure = errno
            // A file system without hard links: renamed instead, once more making sure no
            // file took the name meanwhile.
            let linkless = failure == EPERM || failure == ENOTSUP || failure == EOPNOTSUPP || failure == EMLINK
            guard linkless, !files.fileExists(atPath: destination), rename(path, destination) == 0 else {
                let code = linkless ? errno : failure
                throw ToolError(
                    code: .runtimeError,
                    message: code == EEXIST || files.fileExists(atPath: destination)
                        ? "error: \(destination) already exists; store convert makes a new store"
                        : "error: \(destination): the copy can't be put in place: \(String(cString: strerror(code)))")
            }
            return
        }
        unlink(path)
    }

    /// Removes the work file, its journal and its support folder.
    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        for folder in Self.supportFolders(of: path) { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// `error` with the work file's path replaced by the destination's, which is what the
    /// user named.
    func relabeled(_ error: ToolError) -> ToolError {
        var error = error
        error.message = error.message.replacingOccurrences(of: path, with: destination)
        return error
    }
}
