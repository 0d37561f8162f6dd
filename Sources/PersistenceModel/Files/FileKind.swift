import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path names on disk, following symbolic links: what a program checks before it
/// opens a path that must be a regular file. A FIFO would block the opening process, a
/// device or a directory is not a file to read, replace or create a store in.
package enum FileKind: Equatable, Sendable {
    /// A regular file, or a symbolic link to one.
    case regularFile
    /// Nothing: a new file may be created there.
    case missing
    /// Something that is not a regular file: `"a directory"`, `"a FIFO"`, `"a character
    /// device"`, …, for the error message.
    case other(String)

    /// What `path` names. A link to nothing is "other" rather than missing: creating the
    /// file would create the file it points to.
    package static func of(_ path: String) -> FileKind {
        var status = stat()
        guard stat(path, &status) == 0 else {
            var link = stat()
            if lstat(path, &link) == 0 { return .other("a symbolic link to nothing") }
            return .missing
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .other("a directory")
        case S_IFIFO: return .other("a FIFO (named pipe)")
        case S_IFCHR: return .other("a character device")
        case S_IFBLK: return .other("a block device")
        case S_IFSOCK: return .other("a socket")
        default: return .other("not a regular file")
        }
    }
}
