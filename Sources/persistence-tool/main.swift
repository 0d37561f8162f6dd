import CommandLineSupport
import Foundation
import Persistence

// The arguments are read as bytes: one that is not UTF-8 is refused (65) rather than
// silently read with U+FFFD in place of its bytes.
let arguments: [String]
switch ProcessArguments.decoded() {
case .success(let decoded): arguments = decoded
case .failure(let error):
    try? OutputWriter(fileDescriptor: STDERR_FILENO).write("error: The \(error); nothing was done.\n")
    exit(ExitCode.dataError.rawValue)
}
var output = ToolOutput()
let code = PersistenceTool.run(arguments, output: &output)
exit(output.flush(exitCode: code).rawValue)
