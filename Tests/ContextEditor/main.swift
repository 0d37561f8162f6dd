import Foundation

// A context on a store of books, driven line by line: the second process of the tests that
// edit one book from two processes (see `ContextEditor`). One answer line per command.
let editor = ContextEditor()
while let line = readLine() {
    guard line != "quit" else { break }
    FileHandle.standardOutput.write(Data((editor.handle(line) + "\n").utf8))
}
