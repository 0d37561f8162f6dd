import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How both store layouts touch the files of external binary data (`.<name>_SUPPORT/
/// _EXTERNAL_DATA/<file>`) without being led outside the store's folder.
///
/// A store file is data a user may have been handed: its support folder, or a file in it,
/// can be a symbolic link to anywhere. Followed, a sweep of unreferenced files would delete
/// the files of the folder the link names, a save would write there, and a read would
/// return whatever file the link names (`/etc/passwd` printed by an export). So the folders
/// are checked with `lstat` and refused when either is a link or not a folder, and each
/// file is opened with `O_NOFOLLOW` and read only when it is a regular file (a FIFO would
/// block a reader forever, a device such as `/dev/zero` would never end).
package enum ExternalDataFiles {
    /// Throws when `.<name>_SUPPORT` or its `_EXTERNAL_DATA` folder (`directory`) exists as
    /// anything but a real folder: a symbolic link, a file. A missing folder is fine.
    ///
    /// - Throws: `StoreError.externalData` naming the folder and what it is.
    package static func refuseLinkedFolders(_ directory: String) throws {
        let support = (directory as NSString).deletingLastPathComponent
        for path in [support, directory] {
            var status = stat()
            guard lstat(path, &status) == 0 else { return }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFDIR { continue }
            let what = kind == S_IFLNK ? "a symbolic link" : "not a folder"
            throw StoreError.externalData(
                path: path,
                reason: "is \(what); external data is never read, written or removed through "
                    + "it, so that nothing outside the store's folder is touched (replace it "
                    + "with a real folder)")
        }
    }

    /// The bytes of the regular file at `path`, opened without following a symbolic link.
    ///
    /// - Throws: `Failure` saying why: missing, a link, not a regular file, unreadable.
    package static func readRegularFile(_ path: String) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT: throw Failure(reason: "the file is missing")
            case ELOOP: throw Failure(reason: "the file is a symbolic link, which is never followed")
            default:
                throw Failure(
                    reason: "the file can't be opened: \(String(cString: strerror(code))) (errno \(code))")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Failure(reason: "the file can't be examined")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(reason: "it is not a regular file (\(kind(of: status.st_mode)))")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                let code = errno
                throw Failure(
                    reason: "the file can't be read: \(String(cString: strerror(code))) (errno \(code))")
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    /// Why an external file could not be read, as a phrase for an error message.
    package struct Failure: Error, Sendable {
        /// "the file is missing", "the file is a symbolic link, …".
        package let reason: String
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }
}
