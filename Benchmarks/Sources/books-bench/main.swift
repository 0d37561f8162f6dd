import Foundation

// books-bench: Persistence against hand-written SQLite C code (issue #9). See Bench.swift.
// A child process of the grdb-memory workload (MemoryChild.swift).
if CommandLine.arguments.dropFirst().first == "--memory-child" {
    exit(MemoryChild.run(Array(CommandLine.arguments.dropFirst(2))))
}
// One side of one app-shaped workload alone, for a profiler (AppProfileRun.swift).
if CommandLine.arguments.dropFirst().first == "--app-profile" {
    exit(AppProfileRun.run(Array(CommandLine.arguments.dropFirst(2))))
}
do {
    // One of the writers workload's child processes (see `WriterProcess`).
    if CommandLine.arguments.dropFirst().first == WriterProcess.command {
        exit(WriterProcess.main(Array(CommandLine.arguments.dropFirst(2))))
    }
    let options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
    var bench = try Bench(options: options)
    try bench.run()
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
