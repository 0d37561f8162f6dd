import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

// `books`: read the arguments as bytes, make the locale environment safe, parse the command
// line, run the command, map every error to one line on stderr and an exit code (64 usage,
// 65 bad data, 66 missing input, 1 anything else).
let arguments: [String]
switch ProcessArguments.decoded() {
case .success(let decoded): arguments = decoded
case .failure(let error):
    Terminal.write("Error: The \(error); nothing was done.\n", to: STDERR_FILENO)
    exit(ExitCode.dataError.rawValue)
}
let environment = ProcessInfo.processInfo.environment
// ICU reads LC_ALL, LC_MESSAGES and LANG itself for its default locale, and crashes on
// some values (`LANG=luxembourgish`): a variable that names no usable locale is set to C
// for this process before anything can reach ICU. `environment` keeps what the user set,
// so the printer can say which value it ignored.
for name in UserEnvironment.unusableLocaleVariables(in: environment) { setenv(name, "C", 1) }
// CoreFoundation makes its default time zone from TZ or TZFILE (read from a copy of the
// environment it takes at load time, so `setenv` is too late) whenever a date formatter is
// made, and crashes on a value that is not UTF-8. Every formatter here is given the zone
// `UserEnvironment` reads from TZ (UTC for a value it cannot read, as the C library does);
// making that zone the default means CoreFoundation never reads those variables at all.
NSTimeZone.default = UserEnvironment.timeZone(tz: environment["TZ"])
let command: ParsedCommand
do {
    command = try BooksCommandLine.parse(arguments, environment: environment)
} catch {
    Terminal.write(error.description, to: STDERR_FILENO)
    exit(error.exitCode.rawValue)
}
// A store path taken from a variable that is not UTF-8 would name another file (its bytes
// replaced by U+FFFD): refused, as such an argument is, before anything is opened or created.
if command.usesStore,
    let error = StorePath.variableNotUTF8(in: command.storeURL, environment: environment)
{
    Terminal.write("Error: The \(error); nothing was done.\n", to: STDERR_FILENO)
    exit(ExitCode.dataError.rawValue)
}
if command.usesStore, let value = StorePath.directoryVariable(in: command.storeURL, environment: environment) {
    Terminal.write(
        "Error: BOOKS_STORE '\(QuotedText.excerpt(value))' names a directory; give the store file's path.\n",
        to: STDERR_FILENO)
    exit(ExitCode.usage.rawValue)
}
let code = CommandRunner(command: command, environment: environment).run()
exit(code.rawValue)
