/// The exit statuses of both executables, `books` and `persistence-tool`, following
/// `sysexits.h` where one fits, so that a script tells a typo from bad data from a missing
/// file the same way whichever tool it runs.
///
/// Pass ``rawValue`` to `exit(_:)`.
package struct ExitCode: RawRepresentable, Equatable, Hashable, Sendable,
    CustomStringConvertible
{
    /// The status as the process returns it.
    package var rawValue: Int32

    /// Creates an exit status.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: the command did what was asked (help and `--version` included).
    package static let success = ExitCode(rawValue: 0)
    /// 1: the command was well formed but failed while running (store, I/O, validation).
    package static let runtimeError = ExitCode(rawValue: 1)
    /// 64 (`EX_USAGE`): the command line was malformed; see ``UsageError``.
    package static let usage = ExitCode(rawValue: 64)
    /// 65 (`EX_DATAERR`): the input data was wrong, such as a book the model refuses or a
    /// seed file that does not decode.
    package static let dataError = ExitCode(rawValue: 65)
    /// 66 (`EX_NOINPUT`): an input that must exist does not, such as a book UUID that is not
    /// in the catalogue or a model file that is not there.
    package static let noInput = ExitCode(rawValue: 66)

    /// 128 + `number`: the status a shell expects of a command stopped by that signal
    /// (130 for `SIGINT`, 143 for `SIGTERM`), used when a command stops itself cleanly on
    /// the signal instead of being killed by it.
    package static func signal(_ number: Int32) -> ExitCode {
        ExitCode(rawValue: 128 + number)
    }

    /// The number, as a shell shows it in `$?`.
    package var description: String { String(rawValue) }
}
