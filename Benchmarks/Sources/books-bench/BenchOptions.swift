import Foundation

/// The command line of `books-bench`.
struct BenchOptions {
    static let workloads = ["insert", "fetch", "busy-fetch", "sections", "search", "update", "delete", "cold-search", "seed", "rss", "fetch-tools", "grdb", "grdb-fetch", "grdb-writes", "grdb-memory", "postgresql", "writers", "growth", "plain-seed", "app", "seed-c"]
    /// The workloads run when `--only` is not given: all but those that take long (growth)
    /// and `grdb-fetch` and `grdb-writes`, the reads and the writes of `grdb` alone (which
    /// `grdb` runs).
    static let defaultWorkloads = Set(workloads).subtracting(["growth", "grdb-fetch", "grdb-writes"])
    static let usage = """
        USAGE: books-bench [--books N] [--big N] [--rounds R] [--only NAME[,NAME…]] [--books-binary PATH] [--work DIR]
                           [--postgres URL] [--edits E] [--growth N,N…]

          --books N         books for workloads 1–3, 5, 6, 8, the GRDB comparison and the seed comparison (default 100000)
          --big N           books for the search (4) and memory (7) workloads (default 1000000)
          --rounds R        rounds per in-process workload (default 5)
          --only NAME       run only these workloads: \(workloads.joined(separator: ", "))
          --books-binary P  the release `books` executable (default: beside books-bench, then ../.build/release)
          --work DIR        where stores are made (default /tmp/books-bench)
          --postgres URL    the PostgreSQL server of the postgresql and writers workloads, e.g.
                            postgresql:///postgres?host=/tmp/pg&user=postgres (default
                            $BOOKS_BENCH_POSTGRES); needs a build with --traits PostgreSQL
          --edits E         edits per writer process in the writers workload (default 200)
          --growth N,N…     store sizes of the growth workload (default 10000,100000,1000000); the
                            growth workload runs only when --only names it
        """

    var books = 100_000
    var big = 1_000_000
    var rounds = 5
    var only: Set<String> = defaultWorkloads
    var booksBinary: String?
    var work = "/tmp/books-bench"
    var postgres = ProcessInfo.processInfo.environment["BOOKS_BENCH_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    var edits = 200
    var growth = [10_000, 100_000, 1_000_000]

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw ChildProcessError(description: "\(name) needs a value.\n\(Self.usage)") }
            return next
        }
        func number(_ name: String) throws -> Int {
            let text = try value(name)
            guard let n = Int(text), n > 0 else { throw ChildProcessError(description: "\(name) expects a positive number, not '\(text)'.") }
            return n
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--books": books = try number(argument)
            case "--big": big = try number(argument)
            case "--rounds": rounds = try number(argument)
            case "--books-binary": booksBinary = try value(argument)
            case "--work": work = try value(argument)
            case "--postgres": postgres = try value(argument)
            case "--edits": edits = try number(argument)
            case "--growth":
                let text = try value(argument)
                let sizes = text.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
                guard !sizes.isEmpty, sizes.count == text.split(separator: ",").count else {
                    throw ChildProcessError(description: "--growth expects positive numbers separated by commas, not '\(text)'.")
                }
                growth = sizes.sorted()
            case "--only":
                let names = try value(argument).split(separator: ",").map(String.init)
                for name in names where !Self.workloads.contains(name) {
                    throw ChildProcessError(description: "Unknown workload '\(name)'; expected one of \(Self.workloads.joined(separator: ", ")).")
                }
                only = Set(names)
            case "--help", "-h":
                print(Self.usage)
                exit(0)
            default: throw ChildProcessError(description: "Unknown argument '\(argument)'.\n\(Self.usage)")
            }
        }
    }

    func wants(_ name: String) -> Bool { only.contains(name) }
}
