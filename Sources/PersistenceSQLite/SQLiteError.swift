import CSQLite

/// An error reported by SQLite, with the facts needed to understand it.
///
/// Every failing SQLite result code in the library becomes an `SQLiteError` in one place
/// (`SQLiteConnection.raise(_:sql:message:)`), carrying SQLite's
/// [extended result code](https://sqlite.org/rescode.html), SQLite's own message
/// ([`sqlite3_errmsg`](https://sqlite.org/c3ref/errcode.html)), the SQL that failed and the
/// database file.
///
/// ```
/// SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE): UNIQUE constraint failed: Book.uuid
///   — while executing `INSERT INTO Book(uuid) VALUES (?)` in /tmp/books.sqlite
/// ```
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The primary result code (`extendedCode & 0xff`), such as 19 for `SQLITE_CONSTRAINT`.
    public var code: Int32
    /// The extended result code, such as 2067 for `SQLITE_CONSTRAINT_UNIQUE`.
    ///
    /// See [Result and Error Codes](https://sqlite.org/rescode.html).
    public var extendedCode: Int32
    /// SQLite's message, such as `UNIQUE constraint failed: Book.uuid`.
    public var message: String
    /// The SQL being prepared or executed, when there was one.
    public var sql: String?
    /// The database file, when known (`nil` for in-memory databases).
    public var path: String?

    /// Creates an error from an extended result code and a message.
    ///
    /// - Parameters:
    ///   - extendedCode: An SQLite result code, primary or extended.
    ///   - message: What went wrong; when `nil`, SQLite's
    ///     [`sqlite3_errstr`](https://sqlite.org/c3ref/errcode.html) text for the code.
    ///   - sql: The SQL involved, if any.
    ///   - path: The database file, if any.
    public init(
        extendedCode: Int32, message: String? = nil, sql: String? = nil, path: String? = nil
    ) {
        self.code = extendedCode & 0xFF
        self.extendedCode = extendedCode
        self.message = message ?? String(cString: sqlite3_errstr(extendedCode))
        self.sql = sql
        self.path = path
    }

    // MARK: - Classification

    /// The database is locked by another connection (`SQLITE_BUSY`) or by a statement of this
    /// one (`SQLITE_LOCKED`); retrying later may succeed.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// Any constraint failed (`SQLITE_CONSTRAINT` and its extended codes).
    public var isConstraint: Bool { code == SQLITE_CONSTRAINT }

    /// A UNIQUE or PRIMARY KEY constraint failed.
    public var isUniqueConstraint: Bool {
        extendedCode == SQLiteResultCode.constraintUnique
            || extendedCode == SQLiteResultCode.constraintPrimaryKey
    }

    /// A NOT NULL constraint failed.
    public var isNotNullConstraint: Bool { extendedCode == SQLiteResultCode.constraintNotNull }

    /// A FOREIGN KEY constraint failed.
    public var isForeignKeyConstraint: Bool {
        extendedCode == SQLiteResultCode.constraintForeignKey
    }

    /// A CHECK constraint failed.
    public var isCheckConstraint: Bool { extendedCode == SQLiteResultCode.constraintCheck }

    /// The file exists but is not an SQLite database (`SQLITE_NOTADB`).
    public var isNotADatabase: Bool { code == SQLITE_NOTADB }

    /// The database file is malformed (`SQLITE_CORRUPT` and its extended codes).
    public var isCorrupt: Bool { code == SQLITE_CORRUPT }

    /// A write was attempted on a read-only database (`SQLITE_READONLY`).
    public var isReadOnly: Bool { code == SQLITE_READONLY }

    /// The database file could not be opened (`SQLITE_CANTOPEN`), for instance because it does
    /// not exist and the open mode was ``Database/OpenMode/mustExist``.
    public var isCantOpen: Bool { code == SQLITE_CANTOPEN }

    /// The name of the extended result code, such as `SQLITE_CONSTRAINT_UNIQUE`.
    public var codeName: String { SQLiteResultCode.name(of: extendedCode) }

    // MARK: - Description

    /// A sentence naming the code, SQLite's message, the SQL and the file.
    public var description: String {
        var text = "SQLite error \(code) (\(codeName)): \(message)"
        if let sql {
            text += " — while executing `\(Self.abbreviated(sql))`"
            if let path { text += " in \(path)" }
        } else if let path {
            text += " — in \(path)"
        }
        return text
    }

    /// The SQL on one line, shortened to a readable length.
    private static func abbreviated(_ sql: String) -> String {
        let oneLine = sql.split(whereSeparator: \.isNewline)
            .map { $0.trimmingPrefix(while: \.isWhitespace) }
            .joined(separator: " ")
        let limit = 300
        guard oneLine.count > limit else { return oneLine }
        return String(oneLine.prefix(limit)) + "…"
    }
}

// MARK: - Result codes

/// SQLite's extended result codes, which Swift does not import from `sqlite3.h`.
///
/// See [Result and Error Codes](https://sqlite.org/rescode.html).
package enum SQLiteResultCode {
    /// `SQLITE_READONLY`.
    package static let readOnly: Int32 = 8
    /// `SQLITE_CORRUPT`.
    package static let corrupt: Int32 = 11
    /// `SQLITE_CONSTRAINT_CHECK`.
    package static let constraintCheck: Int32 = 275
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`.
    package static let constraintForeignKey: Int32 = 787
    /// `SQLITE_CONSTRAINT_NOTNULL`.
    package static let constraintNotNull: Int32 = 1299
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`.
    package static let constraintPrimaryKey: Int32 = 1555
    /// `SQLITE_CONSTRAINT_UNIQUE`.
    package static let constraintUnique: Int32 = 2067

    /// The C name of a result code, such as `SQLITE_CONSTRAINT_UNIQUE`; unknown extended codes
    /// fall back to the primary name with the number (`SQLITE_IOERR (extended 6922)`).
    package static func name(of code: Int32) -> String {
        if let name = extendedNames[code] { return name }
        let primary = code & 0xFF
        guard primary >= 0, Int(primary) < primaryNames.count else { return "unknown code \(code)" }
        let name = primaryNames[Int(primary)]
        return primary == code ? name : "\(name) (extended \(code))"
    }

    private static let primaryNames = [
        "SQLITE_OK", "SQLITE_ERROR", "SQLITE_INTERNAL", "SQLITE_PERM", "SQLITE_ABORT",
        "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_NOMEM", "SQLITE_READONLY", "SQLITE_INTERRUPT",
        "SQLITE_IOERR", "SQLITE_CORRUPT", "SQLITE_NOTFOUND", "SQLITE_FULL", "SQLITE_CANTOPEN",
        "SQLITE_PROTOCOL", "SQLITE_EMPTY", "SQLITE_SCHEMA", "SQLITE_TOOBIG", "SQLITE_CONSTRAINT",
        "SQLITE_MISMATCH", "SQLITE_MISUSE", "SQLITE_NOLFS", "SQLITE_AUTH", "SQLITE_FORMAT",
        "SQLITE_RANGE", "SQLITE_NOTADB", "SQLITE_NOTICE", "SQLITE_WARNING",
    ]

    private static let extendedNames: [Int32: String] = [
        100: "SQLITE_ROW", 101: "SQLITE_DONE",
        257: "SQLITE_ERROR_MISSING_COLLSEQ", 513: "SQLITE_ERROR_RETRY",
        769: "SQLITE_ERROR_SNAPSHOT",
        516: "SQLITE_ABORT_ROLLBACK",
        261: "SQLITE_BUSY_RECOVERY", 517: "SQLITE_BUSY_SNAPSHOT", 773: "SQLITE_BUSY_TIMEOUT",
        262: "SQLITE_LOCKED_SHAREDCACHE", 518: "SQLITE_LOCKED_VTAB",
        264: "SQLITE_READONLY_RECOVERY", 520: "SQLITE_READONLY_CANTLOCK",
        776: "SQLITE_READONLY_ROLLBACK", 1032: "SQLITE_READONLY_DBMOVED",
        1288: "SQLITE_READONLY_CANTINIT", 1544: "SQLITE_READONLY_DIRECTORY",
        266: "SQLITE_IOERR_READ", 522: "SQLITE_IOERR_SHORT_READ", 778: "SQLITE_IOERR_WRITE",
        1034: "SQLITE_IOERR_FSYNC", 1290: "SQLITE_IOERR_DIR_FSYNC", 1546: "SQLITE_IOERR_TRUNCATE",
        1802: "SQLITE_IOERR_FSTAT", 2058: "SQLITE_IOERR_UNLOCK", 2314: "SQLITE_IOERR_RDLOCK",
        2570: "SQLITE_IOERR_DELETE", 3082: "SQLITE_IOERR_NOMEM", 3338: "SQLITE_IOERR_ACCESS",
        3850: "SQLITE_IOERR_LOCK", 4106: "SQLITE_IOERR_CLOSE", 4618: "SQLITE_IOERR_SHMOPEN",
        4874: "SQLITE_IOERR_SHMSIZE", 5130: "SQLITE_IOERR_SHMLOCK", 5386: "SQLITE_IOERR_SHMMAP",
        5642: "SQLITE_IOERR_SEEK", 5898: "SQLITE_IOERR_DELETE_NOENT", 6154: "SQLITE_IOERR_MMAP",
        267: "SQLITE_CORRUPT_VTAB", 523: "SQLITE_CORRUPT_SEQUENCE", 779: "SQLITE_CORRUPT_INDEX",
        270: "SQLITE_CANTOPEN_NOTEMPDIR", 526: "SQLITE_CANTOPEN_ISDIR",
        782: "SQLITE_CANTOPEN_FULLPATH", 1038: "SQLITE_CANTOPEN_CONVPATH",
        1294: "SQLITE_CANTOPEN_DIRTYWAL", 1550: "SQLITE_CANTOPEN_SYMLINK",
        275: "SQLITE_CONSTRAINT_CHECK", 531: "SQLITE_CONSTRAINT_COMMITHOOK",
        787: "SQLITE_CONSTRAINT_FOREIGNKEY", 1043: "SQLITE_CONSTRAINT_FUNCTION",
        1299: "SQLITE_CONSTRAINT_NOTNULL", 1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
        1811: "SQLITE_CONSTRAINT_TRIGGER", 2067: "SQLITE_CONSTRAINT_UNIQUE",
        2323: "SQLITE_CONSTRAINT_VTAB", 2579: "SQLITE_CONSTRAINT_ROWID",
        2835: "SQLITE_CONSTRAINT_PINNED", 3091: "SQLITE_CONSTRAINT_DATATYPE",
        283: "SQLITE_NOTICE_RECOVER_WAL", 539: "SQLITE_NOTICE_RECOVER_ROLLBACK",
        284: "SQLITE_WARNING_AUTOINDEX", 279: "SQLITE_AUTH_USER",
    ]
}
