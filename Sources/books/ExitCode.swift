/// The exit statuses of `books`, following `sysexits.h` where one fits.
///
/// Pass ``rawValue`` to `exit(_:)`.
struct ExitCode: RawRepresentable, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The status as the process returns it.
    var rawValue: Int32

    /// Creates an exit status.
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: the command did what was asked (help and `--version` included).
    static let success = ExitCode(rawValue: 0)
    /// 1: the command was well formed but failed while running (store, I/O, validation).
    static let runtimeError = ExitCode(rawValue: 1)
    /// 64 (`EX_USAGE`): the command line was malformed; see ``UsageError``.
    static let usage = ExitCode(rawValue: 64)
    /// 65 (`EX_DATAERR`): the input data was wrong, such as a book the model refuses or a
    /// seed file that does not decode.
    static let dataError = ExitCode(rawValue: 65)
    /// 66 (`EX_NOINPUT`): an input that must exist does not, such as a book UUID that is not
    /// in the catalogue.
    static let noInput = ExitCode(rawValue: 66)

    /// The number, as a shell shows it in `$?`.
    var description: String { String(rawValue) }
}
