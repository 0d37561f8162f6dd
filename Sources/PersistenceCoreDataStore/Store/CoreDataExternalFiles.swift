import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteFiles

/// The files of one save's binary values kept outside their rows, as Core Data keeps them:
/// in `.<store name>_SUPPORT/_EXTERNAL_DATA/` beside the store, one file per value, named by
/// a new UUID, the row holding the marker byte 2 and that name.
///
/// A value above `threshold` bytes of an attribute that allows external storage is written
/// to a new file before its row; a file whose row is deleted or given another value is
/// noted. When the save commits, the noted files are removed; when it rolls back, the new
/// ones are, so that the folder holds exactly the files the rows name.
final class CoreDataExternalFiles {
    /// The size above which a value goes to a file. Core Data does not document its own
    /// threshold (about 100 KB is what is seen); it reads either form, so any choice keeps
    /// the store readable.
    static let threshold = 100 * 1024

    /// `.<name>_SUPPORT/_EXTERNAL_DATA`.
    let folder: URL
    /// Files written by this save.
    private(set) var written: [URL] = []
    /// Files whose rows no longer name them once this save commits.
    private(set) var replaced: [URL] = []

    init(folder: URL) { self.folder = folder }

    /// Whether `value` of `attribute` is kept in a file.
    static func keepsOutside(_ value: AttributeValue, of attribute: AttributeDescription) -> Bool {
        guard attribute.allowsExternalBinaryDataStorage, case .data(let bytes) = value else { return false }
        return bytes.count > threshold
    }

    /// Writes `bytes` to a new file and returns the column value naming it: the marker
    /// byte, the file's name and a NUL.
    ///
    /// - Throws: the file system's error when the folder or file cannot be written.
    func write(_ bytes: Data) throws -> SQLiteValue {
        try ExternalDataFiles.refuseLinkedFolders(folder.path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url, options: .withoutOverwriting)
        written.append(url)
        return .blob(Data([CoreDataValueCodec.externalMarker]) + Data(name.utf8) + Data([0]))
    }

    /// Notes the file a stored column value names, if it names one, to be removed once
    /// the save commits.
    func noteReplaced(_ stored: SQLiteValue) {
        guard case .blob(let bytes) = stored, bytes.first == CoreDataValueCodec.externalMarker else { return }
        let name = String(decoding: bytes.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return }
        replaced.append(folder.appendingPathComponent(name))
    }

    /// After the save committed: the files no row names any more go.
    func didCommit() {
        guard (try? ExternalDataFiles.refuseLinkedFolders(folder.path)) != nil else { return }
        for url in replaced { try? FileManager.default.removeItem(at: url) }
    }

    /// After the save rolled back: the files it wrote go.
    func didRollBack() {
        for url in written { try? FileManager.default.removeItem(at: url) }
    }
}
