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
/// Add a command by listing it in `group`; `store`, `model` and `version` are the shared
/// arguments, and `open`, `openExisting`, `requireStore` and `failure` the shared steps.
enum StoreCommands {
    /// The `store` command group.
    static let group = ToolCommand(
        name: "store",
        abstract: "Create, fill, read and edit a store of any model.",
        subcommands: [create, importObjects, export, delete, check, StoreMigrateCommand.command, StoreConvertCommand.command])

    /// `store create <store> --model <path> [--version <name>]`.
    static let create = ToolCommand(
        name: "create",
        abstract: "Create an empty store for a model.",
        discussion: """
            Creates the file with one table per root entity and records the model's version
            hashes. The file must not exist yet. An invalid model exits 65 and creates nothing.
            """,
        arguments: [store], options: [model, version],
        action: { arguments, output throws(ToolError) in
            let path = arguments[store] ?? ""
            try requireStorePath(path)
            let loaded = try ModelCommands.load(
                path: arguments[model] ?? "", version: arguments[version])
            if ServerStoreURL.isServer(path) {
                // A database: the store is made in it (or found there) by opening it.
                let container = try open(path, loaded)
                try? container.persistentStoreCoordinator.close()
                output.print("Created \(shown(path)) for \(loaded.entities.count) entities.")
                return .success
            }
            // The name is claimed atomically (O_EXCL), so two creates cannot both succeed, and
            // released again if the store cannot be made: a failed create leaves no file, and
            // a retry does not find one "already there".
            let claimed = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if claimed < 0 {
                let code = errno
                if code == EEXIST || FileManager.default.fileExists(atPath: path) {
                    throw ToolError(
                        code: .runtimeError,
                        message: "error: \(path) already exists; store create makes a new store")
                }
                if code == ENOENT {
                    throw failure(
                        StoreError.missingDirectory(path: StoreFile.directory(of: path)), file: nil)
                }
                throw ToolError(
                    code: .runtimeError,
                    message: "error: \(path) can't be created: \(String(cString: strerror(code)))")
            }
            Glibc.close(claimed)
            let container: PersistentContainer
            do { container = try openContainer(path, loaded, readOnly: false) } catch {
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
                throw failure(error, file: nil)
            }
            try? container.persistentStoreCoordinator.close()
            let count = loaded.entities.count
            output.print("Created \(shown(path)) for \(count) \(count == 1 ? "entity" : "entities").")
            return .success
        })

    /// `store import <store> <file> [--model <path>] [--version <name>]`.
    static let importObjects = ToolCommand(
        name: "import",
        abstract: "Add the objects of a JSON file to a store, in one save.",
        discussion: """
            The file holds {"Entity": [{"@id": "local id", "attribute": value, "toOne": "id",
            "toMany": ["id", …]}, …], …}, as store export writes it; @id values are local to
            the file. Relationships may be given on one side only: inverses are filled in.
            Derived attributes are recomputed and transient ones ignored. All or nothing: on
            bad data (exit 65, naming the JSON path and @id) or a failed validation (every
            failure listed) the store is left unchanged. A missing store or file exits 66.
            """,
        arguments: [store, file],
        options: [storeModel, version],
        action: { arguments, output throws(ToolError) in
            let (path, file) = (arguments[store] ?? "", arguments[StoreCommands.file] ?? "")
            let loaded = try loadModel(forStore: path, arguments)
            let document = try readDocument(file)
            try requireStore(path)
            let container = try openExisting(path, loaded, arguments)
            defer { try? container.persistentStoreCoordinator.close() }
            let objects: [ManagedObject]
            do {
                objects = try StoreArchive.importDocument(document, into: container.viewContext)
            } catch {
                throw failure(error, file: file)
            }
            var counts: [String: Int] = [:]
            for object in objects { counts[object.entityName, default: 0] += 1 }
            let detail = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                separator: ", ")
            output.print(
                "Imported \(objects.count) \(objects.count == 1 ? "object" : "objects") into \(shown(path))"
                    + (detail.isEmpty ? "." : " (\(detail))."))
            return .success
        })

    /// `store export <store> [--model <path>] [--version <name>]`.
    static let export = ToolCommand(
        name: "export",
        abstract: "Print every object of a store as JSON.",
        discussion: """
            One object with an array per entity (sub-entities under their own names), entities
            by name, objects by key; "@id" is "Entity/p<key>". To-one relationships are an @id
            or null, to-many an array of @ids (in order when ordered). Strings, URIs and UUIDs
            are strings; integers and floating-point numbers are numbers ("inf", "-inf" and
            "nan" as strings); Decimals are strings with every digit; Booleans true or false;
            Dates ISO 8601 in UTC; Binary and Transformable values base64 of the stored bytes.
            Transient attributes are left out, derived ones included. The store is not changed.
            Objects are written as they are read, so memory stays flat for any store size; the
            document goes to standard output, or to --output's file, only once it is complete:
            on an error nothing is printed and no file is left.
            """,
        arguments: [store],
        options: [
            storeModel, version, output,
        ],
        action: { arguments, output throws(ToolError) in
            let path = arguments[store] ?? ""
            let loaded = try loadModel(forStore: path, arguments)
            try requireStore(path)
            if let output = arguments[StoreCommands.output] { try checkOutputTarget(output, store: path) }
            // Read-only: export changes nothing (no sweep of external data, no index rebuild);
            // the library's reading connection leaves no -wal or -shm file behind.
            let container = try openExisting(path, loaded, arguments, readOnly: true)
            defer { try? container.persistentStoreCoordinator.close() }
            try exportStreaming(container.viewContext, to: arguments[StoreCommands.output])
            return .success
        })

    /// `store delete <store> [--model <path>] --id <id> … [--version <name>]`.
    static let delete = ToolCommand(
        name: "delete",
        abstract: "Delete objects by their exported @id, applying delete rules.",
        discussion: """
            Deletes the objects in one save; Cascade rules delete further objects, Nullify rules
            clear references. When a Deny rule refuses, a relationship's count would break its
            limits, or an @id names no object, nothing is deleted and the exit code is 65.
            Prints every deleted object's @id.
            """,
        arguments: [store],
        options: [
            storeModel, version, id,
        ],
        action: { arguments, output throws(ToolError) in
            let path = arguments[store] ?? ""
            let loaded = try loadModel(forStore: path, arguments)
            // Every @id's form is checked before the store is opened.
            for id in arguments[StoreCommands.id] ?? [] {
                do { _ = try StoreArchive.parseArchiveID(id) } catch {
                    throw failure(error, file: nil)
                }
            }
            try requireStore(path)
            let container = try openExisting(path, loaded, arguments)
            defer { try? container.persistentStoreCoordinator.close() }
            let deleted: [ObjectID]
            do {
                deleted = try StoreArchive.deleteObjects(
                    withIDs: arguments[StoreCommands.id] ?? [], from: container.viewContext)
            } catch {
                throw failure(error, file: nil)
            }
            output.print(
                "Deleted \(deleted.count) \(deleted.count == 1 ? "object" : "objects"): "
                    + deleted.map(\.description).joined(separator: ", ") + ".")
            return .success
        })

    // MARK: - Arguments

    static let store = Argument<String>(
        "store",
        help: "The store: a file path, or a postgresql://user@host:port/db URL in a build with the PostgreSQL trait.")

    /// `<file>` of `store import`.
    static let file = Argument<String>(
        "file", help: "The JSON file to import; - for standard input.")

    /// `--output <file>` of `store export`.
    static let output = Option<String>(
        "output", valueName: "file",
        help: "Write the document to this file (replaced only when complete) instead of standard output.")

    /// `--id <id>` of `store delete`, given once per object.
    static let id = Option<[String]>(
        repeating: "id", valueName: "id",
        help: "An object's @id as store export writes it (Entity/p<key>).", isRequired: true)

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
        _ path: String, _ model: ManagedObjectModel, _ arguments: ParsedArguments,
        readOnly: Bool = false
    ) throws(ToolError) -> PersistentContainer {
        do { return try openContainer(path, model, readOnly: readOnly) } catch {
            let bundle = URL(fileURLWithPath: arguments[StoreCommands.model] ?? "")
            guard case StoreError.incompatibleModel = error, arguments[version] == nil,
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

    private static func openContainer(_ path: String, _ model: ManagedObjectModel, readOnly: Bool)
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
