import CommandLineSupport
import Foundation
import Persistence

#if canImport(Glibc)
    import Glibc
#endif

/// `persistence-tool store …`: create, fill, read and edit a store of any model.
///
/// Each command opens the store with the model named by `--model` (and `--version` for a
/// bundle), or, for a store Core Data wrote, with the model it keeps (see
/// `loadModel(forStore:_:)`), passing transformable values through as the bytes the store keeps, since the
/// tool does not know an app's transformers. The JSON logic is the library's
/// (`StoreArchive`); these commands parse arguments, map errors to exit codes and print.
/// The commands themselves are in `Commands/` (`StoreExportCommand`, …); `store`, `model`
/// and `version` are the arguments they share, and `open`, `openExisting`, `requireStore` and
/// `failure` the steps they share.
enum StoreCommands {
    // MARK: - Arguments

    static let store = Argument<String>(
        "store",
        help: "The store: a file path, or a postgresql://user@host:port/db URL in a build with the PostgreSQL trait.")

    static let model = Option<String>(
        "model", valueName: "path",
        help: "The store's model: a .xcdatamodeld, a .xcdatamodel or its contents file.",
        isRequired: true)

    static let version = Option<String>(
        "version", valueName: "name",
        help: "The version of a .xcdatamodeld bundle (default: the store's, else the current one).")

    // MARK: - Opening and failing

    /// Opens (or, for a missing file, creates) the store, passing unknown transformers'
    /// values through as bytes.
    static func open(_ path: String, _ model: ManagedObjectModel, readOnly: Bool = false)
        throws(ToolError) -> PersistentContainer
    {
        do { return try openContainer(path, model, readOnly: readOnly) } catch {
            throw failure(error, file: nil)
        }
    }

    /// Opens an existing store. Without `--version`, a store written with another version of
    /// the `--model` bundle is opened with that version: a store that does not match is
    /// refused untouched, so trying each version is safe.
    static func openExisting(
        _ path: String, _ model: ManagedObjectModel, _ choice: ModelChoice, readOnly: Bool = false
    ) throws(ToolError) -> PersistentContainer {
        do { return try openContainer(path, model, readOnly: readOnly) } catch {
            let bundle = URL(fileURLWithPath: choice.path ?? "")
            guard case StoreError.incompatibleModel = error, choice.version == nil,
                bundle.pathExtension == "xcdatamodeld",
                let names = try? ManagedObjectModel.versionNames(in: bundle), names.count > 1
            else { throw failure(error, file: nil) }
            for name in names {
                guard let candidate = try? ManagedObjectModel(contentsOf: bundle, version: name),
                    let container = try? openContainer(path, candidate, readOnly: readOnly)
                else { continue }
                return container
            }
            throw ToolError(
                code: .dataError,
                message: "error: \(error); nor does any other version of \(bundle.path) match it "
                    + "(\(QuotedText.list(names)))")
        }
    }

    /// Opens the store at `path` (a file, or a `postgresql://` URL) with `model`, passing
    /// unknown transformers' values through as bytes; throws the library's error as is.
    static func openContainer(_ path: String, _ model: ManagedObjectModel, readOnly: Bool)
        throws -> PersistentContainer
    {
        var options = SQLiteStore.Options()
        options.readOnly = readOnly
        options.passesThroughUnregisteredTransformers = true
        // A `postgresql://` URL names a store on a server (see `ServerStoreURL`).
        let url = ServerStoreURL.isServer(path) ? URL(string: path) : nil
        return try PersistentContainer(
            model: model, storeURL: url ?? URL(fileURLWithPath: path), classes: [:], options: options)
    }

    /// Refuses an `--output` target before the store is read, as the export's `OutputFile`
    /// would: the store itself or one of its files (by name or through a link), another
    /// SQLite database, a directory, a device such as /dev/null, a FIFO, a socket, a
    /// read-only file, a missing folder.
    static func checkOutputTarget(_ path: String, store: String) throws(ToolError) {
        do {
            try OutputFile(path: path, protecting: ServerStoreURL.isServer(store) ? [] : [store]).discard()
        } catch {
            throw ToolError(code: .runtimeError, message: "error: \(error)")
        }
    }

    /// Refuses a `store` command naming a `postgresql://` store (as its store, or as
    /// `convert`'s source or destination) in a build without the PostgreSQL store, before
    /// anything else is read: every command says the same, and none is taken for a path.
    static func requireServerSupport(_ arguments: ParsedArguments) throws(ToolError) {
        guard arguments.commandPath.first == "store", !ServerStoreURL.isSupported else { return }
        let named = [arguments[store], arguments[StoreConvertCommand.source], arguments[StoreConvertCommand.destination]]
        guard named.contains(where: { $0.map(ServerStoreURL.isServer) ?? false }) else { return }
        throw failure(ServerStoreURLError.unsupported, file: nil)
    }

    /// A store location as messages show it: a URL's password hidden (`SecretRedaction`).
    static func shown(_ path: String) -> String { SecretRedaction.redacting(path) }

    /// Refuses an empty store path as a usage error (64), as `books --store ''` does: it
    /// names no file, and would otherwise be read as the current directory's parent.
    static func requireStorePath(_ path: String) throws(ToolError) {
        guard path.isEmpty else { return }
        throw .usage("The store path is empty; give the store file's path")
    }

    /// Refuses a store file that is not there (66), so that a command never creates one.
    static func requireStore(_ path: String) throws(ToolError) {
        try requireStorePath(path)
        guard ServerStoreURL.isServer(path) || FileManager.default.fileExists(atPath: path) else {
            throw ToolError(
                code: .noInput,
                message:
                    "error: There is no store at \(path); create it with 'persistence-tool store create'."
            )
        }
    }

    /// Reads and parses a JSON file (`-`: standard input), at most `InputFile.maximumSize`
    /// bytes: 66 when it is missing, a directory, closed or unreadable; 65 when it is
    /// malformed, larger than the bound, or endless.
    static func readDocument(_ file: String) throws(ToolError) -> JSONValue {
        // A JSON document starts with an object or array after any blanks: anything else
        // (the NUL bytes of /dev/zero) is refused on the first bytes, not after 1 GiB.
        let looksLikeJSON: (Data) -> String? = { data in
            guard let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
                return nil
            }
            return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
                ? nil : "it does not start with a JSON object"
        }
        let data: Data
        do {
            data =
                file == "-"
                ? try InputFile.readStandardInput(looksRight: looksLikeJSON)
                : try InputFile.read(file, looksRight: looksLikeJSON)
        } catch {
            switch error.kind {
            case .tooLarge, .malformed:
                throw ToolError(code: .dataError, message: "error: \(error)")
            case .missing:
                throw ToolError(
                    code: .noInput, message: "error: There is no readable file at \(file): no such file.")
            case .isADirectory, .notARegularFile, .unreadable:
                throw ToolError(code: .noInput, message: "error: \(error)")
            }
        }
        do { return try JSONValue.parse(data) } catch {
            throw ToolError(code: .dataError, message: "error: \(file): malformed JSON at \(error)")
        }
    }

    /// An error that lists several problems: its heading on the `error:` line, then a line
    /// per problem, each escaped on its own, so a value it quotes cannot break the list.
    private static func problems(_ heading: String, _ items: [some CustomStringConvertible]) -> ToolError {
        let lines = ["error: \(QuotedText.forMessage(heading))"] + items.map { "  " + QuotedText.forMessage($0.description) }
        return ToolError(code: .dataError, message: lines.joined(separator: "\n"), isListOfProblems: true)
    }

    /// The exit code and message for a library error: 65 for data the model or store
    /// refuses (a file that is not an SQLite database, a corrupt one, another model's or
    /// another program's store, data that fails validation), 1 for anything else (a path
    /// that is not a file, a read-only store, I/O). Always one line per problem.
    static func failure(_ error: any Error, file: String?) -> ToolError {
        switch error {
        case let error as ToolError:
            return error
        case let error as StoreArchiveError:
            return ToolError(
                code: .dataError, message: "error: " + (file.map { "\($0): " } ?? "") + "\(error)")
        case let error as ModelError:
            return ToolError(code: .dataError, message: ModelCommands.message(for: error))
        case let error as ValidationError where error.failures.count > 1:
            return problems("Validation failed with \(error.failures.count) errors:", error.failures)
        case let error as MergeConflictError where error.conflicts.count > 1:
            return problems("The save conflicts with changes in the store (\(error.conflicts.count) objects):", error.conflicts)
        case is ValidationError, is ConstraintConflictError, is ObjectAccessError, is MergeConflictError:
            return ToolError(code: .dataError, message: "error: \(error)")
        case let error as MigrationError:
            return ToolError(
                code: error.kind == .backupFailed ? .runtimeError : .dataError, message: "error: \(error)")
        case let error as StoreError:
            return ToolError(code: error.isRefusedData ? .dataError : .runtimeError, message: "error: \(error)")
        case let error as CoreDataStoreError:
            return ToolError(code: .dataError, message: "error: \(error)")
        case let error as ServerStoreURLError:
            if case .passwordInURL = error { return .usage(error.description) }
            return ToolError(code: .runtimeError, message: "error: \(error)")
        case let error as any PersistentStoreFailure where error.path == nil && error.failureKind == .notAStore:
            return ToolError(code: .dataError, message: "error: \(error.message); it was left untouched")
        case let error as any PersistentStoreFailure where error.failureKind == .incompatibleModel:
            return ToolError(code: .dataError, message: "error: " + error.message.replacingOccurrences(of: "\n", with: " "))
        case let error as any PersistentStoreFailure where error.failureKind == .notAStore:
            return ToolError(
                code: .dataError,
                message:
                    "error: \(error.path ?? "the store") is not an SQLite database; it was left untouched"
            )
        case let error as any PersistentStoreFailure where error.failureKind == .damaged:
            return ToolError(
                code: .dataError,
                message: "error: \(error.path ?? "the store") is damaged (\(error.message)); nothing was "
                    + "changed. 'persistence-tool store check' lists the damage")
        case let error as any PersistentStoreFailure where error.failureKind == .readOnly:
            return ToolError(
                code: .runtimeError,
                message: "error: \(error.path ?? "the store") is read-only: nothing was changed (\(error.message))")
        default:
            return ToolError(
                code: .runtimeError,
                message: "error: " + "\(error)".replacingOccurrences(of: "\n", with: " "))
        }
    }
}
