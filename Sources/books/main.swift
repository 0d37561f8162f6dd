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
let command: ParsedCommand
do {
    command = try BooksCommandLine.parse(arguments, environment: environment)
} catch {
    Terminal.write(error.description, to: STDERR_FILENO)
    exit(error.exitCode.rawValue)
}
let code = CommandRunner(command: command, environment: environment).run()
exit(code.rawValue)
