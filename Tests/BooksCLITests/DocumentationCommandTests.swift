import CommandLineSupport
import Foundation
import ProcessTestSupport
import Testing

@testable import books

/// `books help COMMAND` with examples, `books completions bash|zsh|fish` and `books man`:
/// all generated from the command specs, so every command (also one added later) appears.
@Suite struct DocumentationCommandTests {
    /// Every command of `books`, as a path.
    static let commandPaths = BooksCommandLine.root.allCommands.map(\.path).filter { !$0.isEmpty }

    @Test func everyCommandHasExamplesAndEveryExampleParses() throws {
        for (path, command) in BooksCommandLine.root.allCommands {
            if !path.isEmpty { #expect(!command.examples.isEmpty, "books \(path.joined(separator: " ")) has no example") }
            for example in command.examples {
                let words = try #require(Self.shellWords(example.commandLine), "\(example.commandLine)")
                guard let start = words.firstIndex(of: "books") else {
                    Issue.record("\(example.commandLine) does not run books")
                    continue
                }
                let arguments = Array(words[(start + 1)...].prefix { !["|", ">", ")"].contains($0) })
                #expect(throws: Never.self, "\(example.commandLine)") {
                    _ = try BooksCommandLine.parse(arguments, environment: ["HOME": "/home/ana"])
                }
            }
        }
    }

    @Test func helpOfACommandShowsItsExamples() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.runBare(["help", "search"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("\nEXAMPLES:\n  books search marquez cien\n      Books with both words"), "\(run.stdout)")
        #expect(run.stdout.contains("  books search author:lem -solaris\n      Books by an author whose name has"))
        #expect(try sandbox.files().isEmpty)
    }

    @Test func theBashScriptCompletesCommandsOptionsAndValues() throws {
        let sandbox = try BooksSandbox()
        try Data("x".utf8).write(to: sandbox.directory.appendingPathComponent("my-books.json"))
        let cases: [([String], String)] = [
            (["books", "s"], "search\nseed\nshow\nstats"),
            (["books", "completions", ""], "bash\nfish\nzsh"),
            (["books", "list", "--by"], "--by-month"),
            (["books", "--store", "x.sqlite", "list", "--j"], "--json"),
            (["books", "list", "--st"], "--store"),
            (["books", "seed", "--file", "my-"], "my-books.json"),
            (["books", "help", "comp"], "completions"),
            (["books", "list", "--limit", "5", "--w"], "--where"),
            (["books", "edit", "ABC", "--st"], "--status\n--store"),
        ]
        for (words, expected) in cases {
            // COMP_WORDS is bash's: the script runs in bash, as completion does.
            let run = try sandbox.shell(
                """
                cd "$HOME" && exec bash -c 'eval "$("$BOOKS" completions bash)" || exit 9
                COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _books
                printf "%s\\n" "${COMPREPLY[@]}" | LC_ALL=C sort' bash "$@"
                """, arguments: words)
            #expect(run.status == 0, "\(words): \(run)")
            #expect(run.stdout == expected + "\n", "\(words): \(run)")
        }
    }

    @Test(arguments: CompletionScript.Shell.allCases)
    func everyShellsScriptIsGeneratedWithEveryCommandAndOption(shell: CompletionScript.Shell) throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.runBare(["completions", shell.rawValue])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        for (path, command) in BooksCommandLine.root.allCommands {
            if let name = path.last { #expect(run.stdout.contains(name), "\(shell): \(name)") }
            for option in command.options { #expect(run.stdout.contains(option.name), "\(shell): --\(option.name)") }
        }
        // The shell itself accepts the script, where it is installed.
        let checker = ["bash": "/usr/bin/bash", "zsh": "/usr/bin/zsh", "fish": "/usr/bin/fish"][shell.rawValue] ?? ""
        if FileManager.default.isExecutableFile(atPath: checker) {
            let syntax = try sandbox.shell("\"$BOOKS\" completions \(shell.rawValue) | \(checker) -n")
            #expect(syntax.status == 0, "\(shell): \(syntax)")
        }
        let wrong = try sandbox.runBare(["completions", "tcsh"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr == "Error: The value 'tcsh' is invalid for '<shell>': must be one of bash, zsh, fish. See 'books help completions'.\n")
    }

    @Test func theManualPageHasEveryCommandAndOptionAndRendersWithoutWarnings() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.runBare(["man"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == #".TH "BOOKS" 1 "" "books \#(BooksCommandLine.version)" "User Commands""#)
        #expect(lines.filter { $0.hasPrefix(".SH ") } == [
            ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH COMMANDS", ".SH ENVIRONMENT",
            ".SH EXIT STATUS",
        ])
        for (path, command) in BooksCommandLine.root.allCommands {
            if !path.isEmpty { #expect(lines.contains(".SS books " + path.joined(separator: " ")), "\(path)") }
            for option in command.options {
                let name = "\\fB\\-\\-" + option.name.replacingOccurrences(of: "-", with: "\\-") + "\\fR"
                #expect(run.stdout.contains(name), "\(path) --\(option.name)")
            }
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let render = try sandbox.shell("\"$BOOKS\" man | /usr/bin/groff -man -Tutf8 -ww -z")
            #expect(render.status == 0 && render.stderr.isEmpty, "\(render)")
        }
        #expect(try sandbox.files().isEmpty)
    }

    // MARK: - Typo hints end to end

    @Test func aHintNeverLeadsToAFileNamedAfterTheNextWord() throws {
        let sandbox = try BooksSandbox.seeded()
        for words in [["list", "--order", "title"], ["search", "lem", "--stor", "title"]] {
            let run = try sandbox.runBare(["--store", sandbox.store.path] + words)
            #expect(run.status == 64, "\(words): \(run)")
            #expect(!run.stderr.contains("--store"), "\(words): \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: Unknown option '\(words[1] == "lem" ? "--stor" : words[1])'. See 'books help"), "\(run.stderr)")
        }
        // `--sort` takes one of a few keys, and `title` is one: the hint cannot swallow a path.
        let sort = try sandbox.runBare(["--store", sandbox.store.path, "list", "--sore", "title"])
        #expect(sort.stderr == "Error: Unknown option '--sore'. Did you mean '--sort'? See 'books help list'.\n")
        let close = try sandbox.runBare(["list", "--limt", "3"])
        #expect(close.stderr == "Error: Unknown option '--limt'. Did you mean '--limit'? See 'books help list'.\n")
        let flag = try sandbox.runBare(["search", "--jsn", "lem"])
        #expect(flag.stderr == "Error: Unknown option '--jsn'. Did you mean '--json'? See 'books help search'.\n")
        #expect(try sandbox.files() == ["Books.sqlite"])
    }

    // MARK: - Helpers

    /// `line` split as a POSIX shell splits words: single and double quotes, backslash
    /// escapes outside single quotes; `nil` for an unterminated quote.
    static func shellWords(_ line: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(word) }
        return words
    }
}
