/// Shell completion scripts for a tool, generated from its ``CommandSpec`` tree, so that a
/// command or option added to the specs is completed without writing any shell.
///
/// Each script walks the words typed so far the way ``CommandLineParser`` reads them
/// (subcommands nested to any depth, the value after an option that takes one skipped,
/// `--name=value` taken whole) to find the command being typed, then completes its
/// subcommands, its options (global ones included), the choices of an option or argument
/// that has them (``ValueCompletion/choices(_:)``), and file names where a value is a path.
///
/// ```sh
/// source <(books completions bash)
/// books completions zsh > "${fpath[1]}/_books"
/// books completions fish > ~/.config/fish/completions/books.fish
/// ```
package struct CompletionScript: Sendable {
    /// The shells a script can be written for.
    package enum Shell: String, Sendable, CaseIterable {
        case bash, zsh, fish
    }

    /// The tool's root command; its name is the command completed.
    package var root: CommandSpec

    /// Creates the generator for the tool described by `root`.
    package init(root: CommandSpec) { self.root = root }

    /// The script for `shell`, ending with a newline.
    package func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bashScript()
        case .zsh: zshScript()
        case .fish: fishScript()
        }
    }

    // MARK: - What each command completes

    /// One command as completion sees it: its path (words joined by spaces; `""` for the
    /// root, `"help"` for the built-in help command), and what may follow it.
    struct Entry {
        var path: String
        var subcommands: [(name: String, abstract: String)]
        var options: [OptionSpec]
        var arguments: [ArgumentSpec]
    }

    /// Every command of the tree, the root first, then the built-in `help` when the tool
    /// has subcommands (it completes the root's subcommands).
    var entries: [Entry] {
        let globals = root.options.filter(\.isGlobal)
        let help = OptionSpec.flag("help", shortName: "h", help: HelpFormatter.helpOptionText)
        var entries: [Entry] = []
        for (path, command) in root.allCommands {
            let isRoot = path.isEmpty
            var subcommands = command.subcommands.map { ($0.name, $0.abstract) }
            if isRoot && !root.subcommands.isEmpty { subcommands.append(("help", HelpFormatter.helpCommandText)) }
            let options = (isRoot ? command.options : command.options + globals) + [help]
            entries.append(
                Entry(
                    path: path.joined(separator: " "), subcommands: subcommands, options: options,
                    arguments: command.arguments))
        }
        if !root.subcommands.isEmpty {
            entries.append(
                Entry(
                    path: "help", subcommands: root.subcommands.map { ($0.name, $0.abstract) },
                    options: globals + [help], arguments: []))
        }
        return entries
    }

    /// The spellings of an option: `--name`, and `-s` when it has a short name.
    static func spellings(_ option: OptionSpec) -> [String] {
        ["--\(option.name)"] + (option.shortName.map { ["-\($0)"] } ?? [])
    }

    /// The words an argument list completes to, and whether file names are completed too.
    static func argumentValues(_ arguments: [ArgumentSpec]) -> (words: [String], files: Bool) {
        var words: [String] = []
        var files = false
        for argument in arguments {
            switch argument.completion {
            case .choices(let choices): words += choices
            case .file: files = true
            case .text: break
            }
        }
        return (words, files)
    }

    /// The tool's name as part of a shell function name (`persistence-tool` →
    /// `persistence_tool`).
    var functionName: String {
        String(root.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    // MARK: - bash

    private func bashScript() -> String {
        let f = "_" + functionName
        var subcommands: [String] = []
        var options: [String] = []
        var valueOptions: [String] = []
        var optionValues: [String] = []
        var argumentValues: [String] = []
        for entry in entries {
            let path = Self.shellQuoted(entry.path)
            subcommands.append("        \(path)) echo \(Self.shellQuoted(entry.subcommands.map(\.name))) ;;")
            options.append("        \(path)) echo \(Self.shellQuoted(entry.options.flatMap(Self.spellings))) ;;")
            let takingValues = entry.options.filter { !$0.isFlag }
            valueOptions.append("        \(path)) echo \(Self.shellQuoted(takingValues.flatMap(Self.spellings))) ;;")
            let values = Self.valueCases(entry, printing: "echo")
            optionValues += values.options
            argumentValues += values.arguments
        }
        func function(_ name: String, _ argumentsComment: String, _ cases: [String], key: String = "$1") -> String {
            Self.caseFunction(f + "_" + name, argumentsComment, cases, key: key)
        }
        return """
            # bash completion for \(root.name), generated from its command specs.
            # Load it with: source <(\(root.name) completions bash)

            \(function("subcommands", "command path", subcommands))\
            \(function("options", "command path", options))\
            \(function("value_options", "command path: the options that take a value", valueOptions))\
            \(function("option_values", "command path, option: its values, or @file", optionValues, key: "$1 $2"))\
            \(function("argument_values", "command path: its arguments' values, or @file", argumentValues))\
            \(f)() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                local path="" word values i skip=0
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word="${COMP_WORDS[i]}"
                    if ((skip)); then skip=0; continue; fi
                    case "$word" in
                        -*=*) ;;
                        -*) [[ " $(\(f)_value_options "$path") " == *" $word "* ]] && skip=1 ;;
                        *) [[ " $(\(f)_subcommands "$path") " == *" $word "* ]] && path="${path:+$path }$word" ;;
                    esac
                done
                if ((COMP_CWORD > 1)) && [[ " $(\(f)_value_options "$path") " == *" $prev "* ]]; then
                    values="$(\(f)_option_values "$path" "$prev")"
                elif [[ $cur == -* ]]; then
                    values="$(\(f)_options "$path")"
                else
                    values="$(\(f)_subcommands "$path") $(\(f)_argument_values "$path")"
                fi
                # Results are read a line each with mapfile: never split at spaces nor
                # expanded as globs (a file named '*.csv' is itself, not every CSV file).
                # `-o filenames` has bash quote what it inserts and mark directories. The word
                # as typed is unquoted first, as compgen does not: a word begun with a quote
                # without it (bash closes the quote), else with its backslashes removed.
                if [[ " $values " == *" @file "* ]]; then
                    compopt -o filenames 2>/dev/null
                    if [[ $cur == \\'* || $cur == \\"* ]]; then
                        cur="${cur:1}"
                    else
                        local plain="" j
                        for ((j = 0; j < ${#cur}; j++)); do
                            [[ ${cur:j:1} == \\\\ ]] && ((j++))
                            plain+="${cur:j:1}"
                        done
                        cur="$plain"
                    fi
                    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
                else
                    mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
                fi
            }
            complete -F \(f) \(root.name)

            """
    }

    /// The `case` arms, the same in the bash and zsh scripts, that print the values of
    /// `entry`'s options taking one (keyed by "path option"; choices, or `@file`) and of its
    /// arguments (keyed by path), with the shell's `printing` command.
    static func valueCases(_ entry: Entry, printing: String) -> (options: [String], arguments: [String]) {
        var options: [String] = []
        for option in entry.options where !option.isFlag {
            let words: String
            switch option.completion {
            case .choices(let choices): words = shellQuoted(choices)
            case .file: words = "@file"
            case .text: continue
            }
            for spelling in spellings(option) {
                options.append("        \(shellQuoted(entry.path + " " + spelling))) \(printing) \(words) ;;")
            }
        }
        var arguments: [String] = []
        let values = argumentValues(entry.arguments)
        if !values.words.isEmpty || values.files {
            let words = values.words + (values.files ? ["@file"] : [])
            arguments.append("        \(shellQuoted(entry.path))) \(printing) \(shellQuoted(words)) ;;")
        }
        return (options, arguments)
    }

    /// A shell function `name` whose one `case` on `key` holds `cases` (bash and zsh alike).
    static func caseFunction(_ name: String, _ argumentsComment: String, _ cases: [String], key: String) -> String {
        """
        \(name)() {  # \(argumentsComment)
            case "\(key)" in
        \(cases.joined(separator: "\n"))
            esac
        }

        """
    }

    // MARK: - zsh

    private func zshScript() -> String {
        let f = "_" + functionName
        var subcommands: [String] = []
        var described: [String] = []
        var valueOptions: [String] = []
        var optionValues: [String] = []
        var argumentValues: [String] = []
        for entry in entries {
            let path = Self.shellQuoted(entry.path)
            subcommands.append("        \(path)) print -r -- \(Self.shellQuoted(entry.subcommands.map(\.name))) ;;")
            var lines = entry.subcommands.map { Self.zshDescribed($0.name, $0.abstract) }
            lines += entry.options.flatMap { option in Self.spellings(option).map { Self.zshDescribed($0, option.help) } }
            described.append("        \(path)) print -rl -- \(lines.map(Self.shellQuoted).joined(separator: " ")) ;;")
            let takingValues = entry.options.filter { !$0.isFlag }
            valueOptions.append("        \(path)) print -r -- \(Self.shellQuoted(takingValues.flatMap(Self.spellings))) ;;")
            let values = Self.valueCases(entry, printing: "print -r --")
            optionValues += values.options
            argumentValues += values.arguments
        }
        func function(_ name: String, _ argumentsComment: String, _ cases: [String], key: String = "$1") -> String {
            Self.caseFunction(f + "_" + name, argumentsComment, cases, key: key)
        }
        return """
            #compdef \(root.name)
            # zsh completion for \(root.name), generated from its command specs.
            # Install it with: \(root.name) completions zsh > "${fpath[1]}/_\(root.name)"

            \(function("subcommands", "command path", subcommands))\
            \(function("described", "command path: name:description lines", described))\
            \(function("value_options", "command path: the options that take a value", valueOptions))\
            \(function("option_values", "command path, option: its values, or @file", optionValues, key: "$1 $2"))\
            \(function("argument_values", "command path: its arguments' values, or @file", argumentValues))\
            \(f)() {
                local cmdpath="" word values i skip=0
                local cur="${words[CURRENT]}" prev="${words[CURRENT-1]}"
                local -a choices lines
                for ((i = 2; i < CURRENT; i++)); do
                    word="${words[i]}"
                    if ((skip)); then skip=0; continue; fi
                    case "$word" in
                        -*=*) ;;
                        -*) [[ " $(\(f)_value_options "$cmdpath") " == *" $word "* ]] && skip=1 ;;
                        *) [[ " $(\(f)_subcommands "$cmdpath") " == *" $word "* ]] && cmdpath="${cmdpath:+$cmdpath }$word" ;;
                    esac
                done
                if ((CURRENT > 2)) && [[ " $(\(f)_value_options "$cmdpath") " == *" $prev "* ]]; then
                    values="$(\(f)_option_values "$cmdpath" "$prev")"
                    if [[ " $values " == *" @file "* ]]; then _files; return; fi
                    choices=(${=values})
                    compadd -a choices
                    return
                fi
                lines=("${(@f)$(\(f)_described "$cmdpath")}")
                if [[ $cur == -* ]]; then
                    lines=(${(M)lines:#-*})
                    _describe -t options option lines
                    return
                fi
                lines=(${lines:#-*})
                values="$(\(f)_argument_values "$cmdpath")"
                if [[ " $values " == *" @file "* ]]; then _files; fi
                choices=(${=values})
                choices=(${choices:#@file})
                (( ${#choices} )) && compadd -a choices
                (( ${#lines} )) && _describe -t commands command lines
            }
            if [[ "${funcstack[1]}" == "\(f)" ]]; then
                \(f) "$@"
            else
                compdef \(f) \(root.name)
            fi

            """
    }

    /// A `name:description` line for `_describe`, colons in the name escaped.
    private static func zshDescribed(_ name: String, _ description: String) -> String {
        name.replacingOccurrences(of: ":", with: "\\:") + ":" + firstSentence(description)
    }

    // MARK: - fish

    private func fishScript() -> String {
        let f = "__" + functionName
        let c = root.name
        var subcommandCases: [String] = []
        var valueOptionCases: [String] = []
        var completions: [String] = ["complete -c \(c) -f"]
        for entry in entries {
            let path = Self.fishQuoted(entry.path)
            subcommandCases.append("        case \(path)\n            printf '%s\\n' \(entry.subcommands.map { Self.fishQuoted($0.name) }.joined(separator: " "))")
            let takingValues = entry.options.filter { !$0.isFlag }
            valueOptionCases.append(
                "        case \(path)\n            printf '%s\\n' \(takingValues.flatMap(Self.spellings).map(Self.fishQuoted).joined(separator: " "))")
            let condition = "-n " + Self.fishQuoted("\(f)_at \(Self.fishQuoted(entry.path))")
            for subcommand in entry.subcommands {
                completions.append(
                    "complete -c \(c) \(condition) -a \(Self.fishQuoted(subcommand.name)) -d \(Self.fishQuoted(Self.firstSentence(subcommand.abstract)))")
            }
            for option in entry.options {
                var line = "complete -c \(c) \(condition)"
                if let short = option.shortName { line += " -s \(Self.fishQuoted(String(short)))" }
                line += " -l \(Self.fishQuoted(option.name))"
                if !option.isFlag {
                    switch option.completion {
                    case .choices(let choices): line += " -x -a \(Self.fishQuoted(choices.joined(separator: " ")))"
                    case .file: line += " -r -F"
                    case .text: line += " -x"
                    }
                }
                line += " -d \(Self.fishQuoted(Self.firstSentence(option.help)))"
                completions.append(line)
            }
            let values = Self.argumentValues(entry.arguments)
            if !values.words.isEmpty {
                completions.append("complete -c \(c) \(condition) -a \(Self.fishQuoted(values.words.joined(separator: " ")))")
            }
            if values.files { completions.append("complete -c \(c) \(condition) -F") }
        }
        return """
            # fish completion for \(c), generated from its command specs.
            # Install it with: \(c) completions fish > ~/.config/fish/completions/\(c).fish

            function \(f)_subcommands --argument-names path
                switch "$path"
            \(subcommandCases.joined(separator: "\n"))
                end
            end

            function \(f)_value_options --argument-names path
                switch "$path"
            \(valueOptionCases.joined(separator: "\n"))
                end
            end

            # The command being typed: the subcommands among the words so far.
            function \(f)_path
                set -l words (commandline -opc)
                set -e words[1]
                set -l path
                set -l skip 0
                for word in $words
                    if test $skip = 1
                        set skip 0
                        continue
                    end
                    switch $word
                        case '-*=*'
                        case '-*'
                            if contains -- $word (\(f)_value_options (string join ' ' -- $path))
                                set skip 1
                            end
                        case '*'
                            if contains -- $word (\(f)_subcommands (string join ' ' -- $path))
                                set -a path $word
                            end
                    end
                end
                string join ' ' -- $path
            end

            function \(f)_at --argument-names expected
                set -l path (\(f)_path)
                test "$path" = "$expected"
            end

            \(completions.joined(separator: "\n"))

            """
    }

    // MARK: - Quoting

    /// `text` in single quotes for sh, bash and zsh.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Words joined by spaces, in single quotes.
    static func shellQuoted(_ words: [String]) -> String {
        shellQuoted(words.joined(separator: " "))
    }

    /// `text` in single quotes for fish (which escapes `\` and `'` inside them).
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// The first sentence of a help text, on one line: what a completion menu shows.
    static func firstSentence(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        if let end = line.range(of: ". ") { return String(line[..<end.lowerBound]) + "." }
        return line
    }
}
