import BookCatalog
import Foundation

// `books`: parse the command line, run the command, map every error to one line on stderr
// and an exit code (64 usage, 65 bad data, 66 missing input, 1 anything else).
let environment = ProcessInfo.processInfo.environment
let command: ParsedCommand
do {
    command = try BooksCommandLine.parse(Array(CommandLine.arguments.dropFirst()), environment: environment)
} catch {
    Terminal.write(error.description, to: STDERR_FILENO)
    exit(error.exitCode.rawValue)
}
let code = CommandRunner(command: command, environment: environment).run()
exit(code.rawValue)
