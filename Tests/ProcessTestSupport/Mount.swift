import Foundation

/// File systems that a test mounts for itself: a small tmpfs to fill, a folder seen through a
/// read-only bind mount as read-only media.
///
/// Mounting needs root and a kernel that lets this process mount (CI runners, containers run
/// with the capability); each call says whether it worked, so a test can skip where it cannot.
public enum Mount {
    /// Whether this process may mount read-only media: root, and a probe folder bind-mounted
    /// onto itself and remounted read-only worked (then unmounted and removed).
    public static let canMountReadOnly: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: mount) else { return false }
        let probe = FileManager.default.temporaryDirectory
            .appendingPathComponent("mount-probe-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard bind(probe, at: probe) else { return false }
        let remounted = remountReadOnly(probe)
        unmount(probe)
        return remounted
    }()

    /// Mounts a tmpfs of `size` (`"3m"`) at `directory`; false when this system does not
    /// allow it.
    public static func tmpfs(at directory: URL, size: String) -> Bool {
        guard geteuid() == 0 else { return false }
        return run(mount, ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", directory.path]) == 0
    }

    /// Bind-mounts `source` at `directory`; whether it worked.
    @discardableResult
    public static func bind(_ source: URL, at directory: URL) -> Bool {
        run(mount, ["--bind", source.path, directory.path]) == 0
    }

    /// Makes the bind mount at `directory` read-only; whether it worked.
    @discardableResult
    public static func remountReadOnly(_ directory: URL) -> Bool {
        run(mount, ["-o", "remount,bind,ro", directory.path]) == 0
    }

    /// Unmounts what is mounted at `directory`; whether it worked.
    @discardableResult
    public static func unmount(_ directory: URL) -> Bool {
        run("/bin/umount", [directory.path]) == 0
    }

    // MARK: - Internals

    private static let mount = "/bin/mount"

    /// Runs `executable` with its output discarded; its exit status, or -1 when it cannot
    /// be started.
    private static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
